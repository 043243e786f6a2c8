package dev.llmops.serving.e2e.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks an end-to-end test class: it runs against the shared {@link E2eCluster} and gets its own
 * {@link TestNamespace}, both injectable as parameters (as is the cluster's KubernetesClient).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("e2e")
@ExtendWith(E2eClusterExtension.class)
public @interface E2eTest {}
