/** HTML, Markdown and CSV reports of a saved BenchmarkRun. */
package dev.llmops.serving.report;
