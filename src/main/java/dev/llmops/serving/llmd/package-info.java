/**
 * A BenchmarkRun as llm-d's benchmark report, shared by {@code report --format llmd}, which writes it for users, and
 * the operator, which archives it with each finished run.
 */
package dev.llmops.serving.llmd;
