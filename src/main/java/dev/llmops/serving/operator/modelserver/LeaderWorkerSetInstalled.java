package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Whether the cluster serves the LeaderWorkerSet API. As an activation condition it keeps the operator from watching
 * a kind the cluster does not have; API discovery needs no extra RBAC. A found API is remembered; an absent one is
 * looked up again after a short while, so installing LeaderWorkerSet later needs no operator restart. One thread looks
 * it up at a time: the reconciler threads that find a recheck due while another makes it answer with what is known,
 * instead of all asking the API server (and waiting for it) at once.
 */
@ApplicationScoped
public class LeaderWorkerSetInstalled implements Condition<LeaderWorkerSet, ModelServer> {

    private static final Duration RECHECK_ABSENT_AFTER = Duration.ofSeconds(30);

    private volatile boolean installed;
    private volatile Instant lastAbsentCheck = Instant.MIN;
    private final ReentrantLock checking = new ReentrantLock();

    @Override
    public boolean isMet(
            DependentResource<LeaderWorkerSet, ModelServer> dependent,
            ModelServer server,
            Context<ModelServer> context) {
        return isInstalled(context.getClient());
    }

    public boolean isInstalled(KubernetesClient client) {
        if (!installed && recheckDue() && checking.tryLock()) {
            try {
                if (recheckDue()) {
                    installed = client.supports(LeaderWorkerSet.API_VERSION, LeaderWorkerSet.KIND);
                    lastAbsentCheck = Instant.now();
                }
            } finally {
                checking.unlock();
            }
        }
        return installed;
    }

    /** The problem of a spec that spans nodes in a cluster without the LeaderWorkerSet API, if it is one. */
    public Optional<SpecValidator.Problem> missingFor(ModelServerSpec spec, KubernetesClient client) {
        if (spec.parallelism.nodes <= 1 || isInstalled(client)) {
            return Optional.empty();
        }
        return Optional.of(new SpecValidator.Problem(
                "LeaderWorkerSetNotInstalled",
                "spec.parallelism.nodes",
                ("spec.parallelism.nodes=%d needs a LeaderWorkerSet (%s), but its CRD is not installed in this "
                                + "cluster: install LeaderWorkerSet (%s is the release the operator is tested with) "
                                + "or set nodes to 1")
                        .formatted(
                                spec.parallelism.nodes, LeaderWorkerSet.API_VERSION, LeaderWorkerSet.TESTED_VERSION)));
    }

    private boolean recheckDue() {
        return Instant.now().isAfter(lastAbsentCheck.plus(RECHECK_ABSENT_AFTER));
    }
}
