/**
 * Finished BenchmarkRuns kept in S3-compatible object storage: each run's record (the run with its status and
 * provenance, its per-request samples, its llm-d reports) under a stable key, written and read with the AWS SDK. Shared
 * by the operator, which archives runs as they finish and reads a deleted baseline back, and {@code report history},
 * which reads a target's runs from the archive. Talks to no cluster.
 */
package dev.llmops.serving.archive;
