package dev.llmops.serving.operator.modelserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which labelled pods count as a server's: the owner chains of a Deployment and of a LeaderWorkerSet's leaders and
 * workers, UID by UID, and how often the objects in between are read.
 */
class OwnedPodsTest {

    private static final String NAMESPACE = "team-a";

    private final Map<String, ObjectMeta> apps = new HashMap<>();
    private final List<String> reads = new ArrayList<>();
    private final MovableClock clock = new MovableClock();
    private final OwnedPods owned = new OwnedPods(
            (namespace, kind, name) -> {
                reads.add(kind + "/" + name);
                return Optional.ofNullable(apps.get(namespace + "/" + kind + "/" + name));
            },
            clock);

    private final ModelServer server = server();
    private final Deployment deployment = deployment(server.getMetadata().getName(), owner("ModelServer", "ms-uid"));

    @Test
    void aPodOfTheDeploymentsReplicaSetCountsAndLookalikesDoNot() {
        apps("ReplicaSet", "qwen-6f7d", "rs-uid", owner("Deployment", "deploy-uid"));
        apps("ReplicaSet", "qwen-7a7a", "their-rs-uid", owner("Deployment", "their-deploy-uid"));
        apps("ReplicaSet", "qwen-8b8b", "orphan-rs-uid");
        Pod own = pod("qwen-6f7d-aaaaa", owner("ReplicaSet", "qwen-6f7d", "rs-uid"));
        List<Pod> lookalikes = List.of(
                pod("qwen-unowned"),
                pod("qwen-6f7d-forged", owner("ReplicaSet", "qwen-6f7d", "made-up-uid")),
                pod("qwen-9c9c-forged", owner("ReplicaSet", "qwen-9c9c", "no-such-rs-uid")),
                pod("qwen-7a7a-bbbbb", owner("ReplicaSet", "qwen-7a7a", "their-rs-uid")),
                pod("qwen-8b8b-ccccc", owner("ReplicaSet", "qwen-8b8b", "orphan-rs-uid")),
                pod("qwen-deploy", owner("Deployment", "qwen", "deploy-uid")),
                pod("qwen-path", owner("ReplicaSet", "../../api/v1/secrets", "rs-uid")));
        List<Pod> pods = new ArrayList<>(lookalikes);
        pods.add(own);

        assertThat(owned.of(server, List.of(deployment), pods)).containsExactly(own);
        assertThat(reads).doesNotContain("ReplicaSet/../../api/v1/secrets");
    }

    @Test
    void onlyTheServersOwnWorkloadLeadsAnywhere() {
        apps("ReplicaSet", "qwen-6f7d", "rs-uid", owner("Deployment", "deploy-uid"));
        Pod pod = pod("qwen-6f7d-aaaaa", owner("ReplicaSet", "qwen-6f7d", "rs-uid"));

        assertThat(owned.of(server, List.of(deployment("qwen", owner("ModelServer", "other-uid"))), List.of(pod)))
                .as("a Deployment not owned by the server")
                .isEmpty();
        assertThat(owned.of(server, List.of(deployment("other", owner("ModelServer", "ms-uid"))), List.of(pod)))
                .as("a Deployment without the server's name")
                .isEmpty();
        assertThat(owned.of(server, List.of(deployment), List.of(pod))).containsExactly(pod);
    }

    @Test
    void leadersAndWorkersOfTheLeaderWorkerSetCount() {
        HasMetadata set = leaderWorkerSet(owner("ModelServer", "ms-uid"));
        apps("StatefulSet", "qwen", "leaders-uid", owner("LeaderWorkerSet", "lws-uid"));
        Pod leader = pod("qwen-0", owner("StatefulSet", "qwen", "leaders-uid"));
        apps("StatefulSet", "qwen-0", "workers-uid", owner("Pod", "qwen-0"));
        Pod worker = pod("qwen-0-1", owner("StatefulSet", "qwen-0", "workers-uid"));
        Pod stranger = pod("stranger");
        apps("StatefulSet", "stranger", "stranger-workers-uid", owner("Pod", "stranger"));
        Pod strangersWorker = pod("stranger-1", owner("StatefulSet", "stranger", "stranger-workers-uid"));

        assertThat(owned.of(server, List.of(set), List.of(leader, worker, stranger, strangersWorker)))
                .containsExactly(leader, worker);
    }

    @Test
    void eachObjectInBetweenIsReadOnceAndAnUnconfirmedLinkAgainAfterAMinute() {
        apps("ReplicaSet", "qwen-6f7d", "rs-uid", owner("Deployment", "deploy-uid"));
        apps("ReplicaSet", "qwen-8b8b", "orphan-rs-uid");
        Pod own = pod("qwen-6f7d-aaaaa", owner("ReplicaSet", "qwen-6f7d", "rs-uid"));
        Pod adopted = pod("qwen-8b8b-ccccc", owner("ReplicaSet", "qwen-8b8b", "orphan-rs-uid"));

        for (int i = 0; i < 5; i++) {
            assertThat(owned.of(server, List.of(deployment), List.of(own, adopted)))
                    .containsExactly(own);
        }
        assertThat(reads).containsExactly("ReplicaSet/qwen-6f7d", "ReplicaSet/qwen-8b8b");

        apps("ReplicaSet", "qwen-8b8b", "orphan-rs-uid", owner("Deployment", "deploy-uid"));
        clock.advance(Duration.ofSeconds(30));
        assertThat(owned.of(server, List.of(deployment), List.of(own, adopted))).containsExactly(own);
        clock.advance(OwnedPods.RECHECK);
        assertThat(owned.of(server, List.of(deployment), List.of(own, adopted))).containsExactly(own, adopted);
        assertThat(reads).containsExactly("ReplicaSet/qwen-6f7d", "ReplicaSet/qwen-8b8b", "ReplicaSet/qwen-8b8b");
    }

    private void apps(String kind, String name, String uid, OwnerReference... owners) {
        apps.put(
                NAMESPACE + "/" + kind + "/" + name,
                new ObjectMetaBuilder()
                        .withName(name)
                        .withNamespace(NAMESPACE)
                        .withUid(uid)
                        .withOwnerReferences(owners)
                        .build());
    }

    private static ModelServer server() {
        ModelServer server = TestModelServers.example("small-model-b200.yaml", NAMESPACE);
        server.getMetadata().setName("qwen");
        server.getMetadata().setUid("ms-uid");
        return server;
    }

    private static Deployment deployment(String name, OwnerReference owner) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NAMESPACE)
                .withUid("deploy-uid")
                .withOwnerReferences(owner)
                .endMetadata()
                .build();
    }

    private static HasMetadata leaderWorkerSet(OwnerReference owner) {
        LeaderWorkerSet set = new LeaderWorkerSet();
        set.setMetadata(new ObjectMetaBuilder()
                .withName("qwen")
                .withNamespace(NAMESPACE)
                .withUid("lws-uid")
                .withOwnerReferences(owner)
                .build());
        return set;
    }

    private static Pod pod(String name, OwnerReference... owners) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NAMESPACE)
                .withUid(name)
                .withOwnerReferences(owners)
                .endMetadata()
                .build();
    }

    /** A controller reference; a pod's UID in these tests is its name. */
    private static OwnerReference owner(String kind, String uid) {
        return owner(kind, uid, uid);
    }

    private static OwnerReference owner(String kind, String name, String uid) {
        return new OwnerReferenceBuilder()
                .withApiVersion(
                        switch (kind) {
                            case "ReplicaSet", "StatefulSet", "Deployment" -> "apps/v1";
                            case "LeaderWorkerSet" -> LeaderWorkerSet.API_VERSION;
                            case "ModelServer" -> "serving.llmops.dev/v1alpha1";
                            default -> "v1";
                        })
                .withKind(kind)
                .withName(name)
                .withUid(uid)
                .withController(true)
                .build();
    }

    /** A clock the test moves. */
    private static final class MovableClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T10:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
