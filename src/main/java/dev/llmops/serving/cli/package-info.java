/** The executable's entry point and its operator, demo, simulate and report commands. */
package dev.llmops.serving.cli;
