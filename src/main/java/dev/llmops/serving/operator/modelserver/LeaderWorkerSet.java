package dev.llmops.serving.operator.modelserver;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A leaderworkerset.x-k8s.io/v1 LeaderWorkerSet, kept generic (its spec is a property bag) so no model classes of that
 * project are needed. The annotations name its API statically, so the client never needs discovery to address it:
 * the operator can start, and run single-node servers, in clusters where the CRD is not installed.
 */
@Group(LeaderWorkerSet.GROUP)
@Version(LeaderWorkerSet.VERSION)
@Kind(LeaderWorkerSet.KIND)
@Plural("leaderworkersets")
public class LeaderWorkerSet extends GenericKubernetesResource implements Namespaced {
    public static final String GROUP = "leaderworkerset.x-k8s.io";
    public static final String VERSION = "v1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "LeaderWorkerSet";
    /** The release the e2e suite runs the operator against (hack/controlplane/lws/version). */
    public static final String TESTED_VERSION = "v0.10.0";
    /**
     * The labels LeaderWorkerSet puts on each pod of a group: which set, which group, and which pod of it (0 is the
     * leader).
     */
    public static final String NAME_LABEL = "leaderworkerset.sigs.k8s.io/name";

    public static final String GROUP_INDEX_LABEL = "leaderworkerset.sigs.k8s.io/group-index";

    public static final String WORKER_INDEX_LABEL = "leaderworkerset.sigs.k8s.io/worker-index";
}
