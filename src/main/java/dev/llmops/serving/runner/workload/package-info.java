/** What a run sends: datasets, prompts and arrival schedules, seeded. */
package dev.llmops.serving.runner.workload;
