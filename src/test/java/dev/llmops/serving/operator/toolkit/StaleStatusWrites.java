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
        server.expect()
                .put()
                .withPath("/apis/serving.llmops.dev/v1alpha1/namespaces/%s/%s/%s/status"
                        .formatted(namespace, plural, name))
                .andReturn(
                        409,
                        new StatusBuilder()
                                .withCode(409)
                                .withReason("Conflict")
                                .withMessage("the object has been modified; please apply your changes to the latest"
                                        + " version and try again")
                                .build())
                .once();
    }

    /** The next status write of the resource {@code plural/name} in {@code namespace} finds it deleted. */
    public static void deletedBeforeNext(KubernetesServer server, String namespace, String plural, String name) {
        server.expect()
                .put()
                .withPath("/apis/serving.llmops.dev/v1alpha1/namespaces/%s/%s/%s/status"
                        .formatted(namespace, plural, name))
                .andReturn(
                        404,
                        new StatusBuilder()
                                .withCode(404)
                                .withReason("NotFound")
                                .withMessage(plural + " \"" + name + "\" not found")
                                .build())
                .once();
    }
}
