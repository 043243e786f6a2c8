/**
 * What the operator and the benchmark runner must agree on: flags, defaults, exit codes, the summary and samples
 * formats.
 */
package dev.llmops.serving.api.contract;
