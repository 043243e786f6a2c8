/** What both controllers use: conditions, Events, pod logs, status writes, reconcile errors. */
package dev.llmops.serving.operator.toolkit;
