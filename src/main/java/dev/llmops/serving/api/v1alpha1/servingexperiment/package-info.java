/** The ServingExperiment kind: serving variants of one model compared one after another on one GPU pool. */
package dev.llmops.serving.api.v1alpha1.servingexperiment;
