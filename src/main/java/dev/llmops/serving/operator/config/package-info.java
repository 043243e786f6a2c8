/** The operator's settings and its metrics. */
package dev.llmops.serving.operator.config;
