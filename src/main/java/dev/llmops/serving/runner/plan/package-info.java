/** What a run does: its configuration, stage plan, capacity search and SLO. */
package dev.llmops.serving.runner.plan;
