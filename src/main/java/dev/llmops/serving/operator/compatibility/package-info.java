/**
 * Configurations known not to run on some GPUs, as a table of rules (a resource, not code), and the check of a
 * ModelServer spec against it that the ModelServer controller and the {@code validate} command share. Imports only
 * the API.
 */
package dev.llmops.serving.operator.compatibility;
