/** What the generated CRDs need before they ship. */
package dev.llmops.serving.operator.crd;
