/** The ModelServer controller: one dependent per owned object, GPU placement, inference probes, diagnosis. */
package dev.llmops.serving.operator.modelserver;
