/** Small helpers several parts share. */
package dev.llmops.serving.common;
