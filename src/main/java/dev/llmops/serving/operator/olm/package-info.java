/** The OLM bundle's metadata. */
package dev.llmops.serving.operator.olm;
