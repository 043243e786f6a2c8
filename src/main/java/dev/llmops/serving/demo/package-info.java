/** The demo: scenarios, the workload-controller and kubelet stand-ins, what it prints. */
package dev.llmops.serving.demo;
