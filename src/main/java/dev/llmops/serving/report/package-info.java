/** HTML, Markdown, CSV and llm-d reports of a saved BenchmarkRun, or of a saved ServingExperiment and its runs. */
package dev.llmops.serving.report;
