/** The ModelServer kind: an SGLang deployment that is Ready only when a real generation succeeds. */
package dev.llmops.serving.api.v1alpha1.modelserver;
