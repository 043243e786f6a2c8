package dev.llmops.serving.e2e.support;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Locale;
import java.util.UUID;

/** A namespace of one test class, so test classes never see each other's objects and leave nothing behind. */
public record TestNamespace(String name) {

    public static TestNamespace create(KubernetesClient client, Class<?> testClass) {
        String prefix =
                testClass.getSimpleName().replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
        String name = "e2e-" + prefix.substring(0, Math.min(prefix.length(), 40)) + "-"
                + UUID.randomUUID().toString().substring(0, 6);
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .create();
        return new TestNamespace(name);
    }

    /** Deletes the namespace; pods go first with no grace period, so nothing waits for a graceful deletion. */
    public void delete(KubernetesClient client) {
        client.pods().inNamespace(name).withGracePeriod(0).delete();
        client.namespaces().withName(name).delete();
    }
}
