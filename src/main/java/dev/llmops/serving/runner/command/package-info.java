/** The bench and probe commands. */
package dev.llmops.serving.runner.command;
