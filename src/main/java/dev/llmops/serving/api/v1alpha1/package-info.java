/**
 * The {@code serving.llmops.dev/v1alpha1} API: resource classes only, no logic, one sub-package per kind, and here the
 * names both kinds share. Validation lives in annotations so it ends up in the generated CRD schema where the API
 * server enforces it.
 */
package dev.llmops.serving.api.v1alpha1;
