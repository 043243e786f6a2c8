/** The OpenAI-compatible streaming client and what it reads from a server, bounded. */
package dev.llmops.serving.runner.transport;
