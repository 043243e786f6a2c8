/** Option checks and converters the commands share. */
package dev.llmops.serving.common.options;
