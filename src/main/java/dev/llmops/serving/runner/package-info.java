/** The benchmark runner: plain Java, no Kubernetes or Quarkus types, so it runs anywhere. */
package dev.llmops.serving.runner;
