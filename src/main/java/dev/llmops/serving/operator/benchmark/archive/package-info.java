/**
 * The operator's side of the object-store archive: a finished run's record written once, retried with backoff, and a
 * run deleted from the cluster read back from it for the comparisons that name it.
 */
package dev.llmops.serving.operator.benchmark.archive;
