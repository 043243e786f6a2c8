/** What a run writes: reports, the summary and samples, console progress. */
package dev.llmops.serving.runner.output;
