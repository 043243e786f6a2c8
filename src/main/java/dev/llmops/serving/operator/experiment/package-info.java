/** The ServingExperiment controller: deploys its variants one after another, benchmarks each, names the winner. */
package dev.llmops.serving.operator.experiment;
