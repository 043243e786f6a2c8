/** The demo's embedded Kubernetes API, built on the fabric8 mock server. */
package dev.llmops.serving.demo.apiserver;
