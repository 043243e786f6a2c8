package dev.llmops.serving.operator.toolkit;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.quarkus.test.kubernetes.client.KubernetesServer;

/**
 * Makes the mock API server refuse a resource's next status write with 409, as a newer version on the server would, or
 * with 404, as a deletion since the reconcile read it would.
 */
public final class StaleStatusWrites {

    private StaleStatusWrites() {}

    /** The next status write of the resource {@code plural/name} in {@code namespace} of our API group is refused. */
    public static void refuseNext(KubernetesServer server, String namespace, String plural, String name) {
        answerNext(
                server,
                namespace,
                plural,
                name,
                409,
                "Conflict",
                "the object has been modified; please apply your changes to the latest version and try again");
    }

    /** The next status write of the resource {@code plural/name} in {@code namespace} finds it deleted. */
    public static void deletedBeforeNext(KubernetesServer server, String namespace, String plural, String name) {
        answerNext(server, namespace, plural, name, 404, "NotFound", plural + " \"" + name + "\" not found");
    }

    private static void answerNext(
            KubernetesServer server,
            String namespace,
            String plural,
            String name,
            int code,
            String reason,
            String message) {
        server.expect()
                .put()
                .withPath("/apis/serving.llmops.dev/v1alpha1/namespaces/%s/%s/%s/status"
                        .formatted(namespace, plural, name))
                .andReturn(
                        code,
                        new StatusBuilder()
                                .withCode(code)
                                .withReason(reason)
                                .withMessage(message)
                                .build())
                .once();
    }
}
