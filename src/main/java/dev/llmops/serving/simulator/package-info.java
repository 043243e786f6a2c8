/** An SGLang stand-in with ground truth and faults, for tests, the demo and the benchmarks. */
package dev.llmops.serving.simulator;
