package dev.llmops.serving.operator.toolkit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.net.HttpURLConnection;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * Writes a reconciled resource's status over exactly the version the reconcile read, then puts the result into the
 * operator SDK's cache: a reconcile that ran on a stale copy writes nothing (so its transitions, already recorded by
 * the reconcile that wrote them, are not recorded twice), and the next reconcile starts from what was written even
 * when the informer has not caught up.
 */
public final class StatusWrite {

    /** How soon a reconcile that lost to a newer version runs again, by when the cache holds that version. */
    public static final Duration STALE_COPY_RECHECK = Duration.ofSeconds(1);

    private static final Logger LOG = Logger.getLogger(StatusWrite.class);

    private StatusWrite() {}

    /**
     * Whether the status was written: false when the resource changed on the server since the reconcile read it, or
     * was deleted (another run's retention may delete a run while it is reconciled).
     */
    public static <P extends HasMetadata> boolean apply(P resource, Context<P> context) {
        boolean serverSideApply =
                context.getControllerConfiguration().getConfigurationService().useSSAToPatchPrimaryResource();
        try {
            P written = overReadVersion(
                    context.getClient(),
                    context.getControllerConfiguration().fieldManager(),
                    serverSideApply,
                    resource);
            context.eventSourceRetriever()
                    .getControllerEventSource()
                    .handleRecentResourceUpdate(ResourceID.fromResource(resource), written, resource);
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                LOG.debugf(
                        "%s %s/%s changed since it was read; its status is computed again from the newer copy",
                        resource.getKind(),
                        resource.getMetadata().getNamespace(),
                        resource.getMetadata().getName());
                return false;
            }
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                LOG.debugf(
                        "%s %s/%s was deleted since it was read; its status is not written",
                        resource.getKind(),
                        resource.getMetadata().getNamespace(),
                        resource.getMetadata().getName());
                return false;
            }
            throw e;
        }
    }

    /**
     * Writes {@code resource}'s status, by server-side apply (as the operator SDK writes it) or by replacing it, both
     * refused with 409 Conflict unless the resource is still at {@code resource}'s resourceVersion.
     */
    public static <P extends HasMetadata> P overReadVersion(
            KubernetesClient client, String fieldManager, boolean serverSideApply, P resource) {
        if (resource.getMetadata().getResourceVersion() == null) {
            throw new IllegalArgumentException("a status is written over the version it was computed from");
        }
        var onServer = client.resource(resource);
        if (!serverSideApply) {
            return onServer.updateStatus();
        }
        return onServer.subresource("status")
                .patch(new PatchContext.Builder()
                        .withFieldManager(fieldManager)
                        .withForce(true)
                        .withPatchType(PatchType.SERVER_SIDE_APPLY)
                        .build());
    }
}
