package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.operator.toolkit.Owners;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Picks, among the pods labelled with a ModelServer's name, those its own workload runs. Anyone who can create pods in
 * the namespace can copy the labels, and a pod picked by label alone would be sent the server's API key with the
 * probe, have its readiness patched and be diagnosed in the server's status. A pod counts only when its controller
 * chain leads, UID by UID, to the Deployment or LeaderWorkerSet the operator made for this server: pod → ReplicaSet →
 * Deployment; leader pod → leader StatefulSet → LeaderWorkerSet; worker pod → worker StatefulSet → its leader pod,
 * itself checked.
 *
 * <p>The ReplicaSets and StatefulSets in between are read with one GET the first time a pod names one, and only the
 * link found (its controller's kind and UID) is kept, in a cache of at most {@value #MAX_LINKS} links (under 500 bytes
 * each, so at most 2 MiB). An informer on them would keep every whole object, pod template included, and a Deployment
 * keeps up to ten old ReplicaSets: tens of MiB at 1000 servers, and a watch event for each of their status changes. A
 * link that leads to the server's workload is trusted as long as it is cached (the objects its workload creates keep
 * their controller); one that does not is read again once it is {@link #RECHECK} old, so a ReplicaSet adopted after
 * its Deployment was deleted with orphans counts again, while a pod with a forged reference costs one GET a minute.
 */
final class OwnedPods {

    static final int MAX_LINKS = 4096;
    static final Duration RECHECK = Duration.ofMinutes(1);

    /** A ReplicaSet's or StatefulSet's name, a DNS subdomain; anything else is no object's name and is never sent. */
    private static final Pattern OBJECT_NAME =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private static final int MAX_NAME_LENGTH = 253;
    private static final Set<String> INTERMEDIATE_KINDS = Set.of("ReplicaSet", "StatefulSet");
    private static final String APPS_V1 = "apps/v1";

    /** Reads an object of the apps group by kind and name; empty when there is none. */
    @FunctionalInterface
    interface Lookup {
        Optional<ObjectMeta> find(String namespace, String kind, String name);
    }

    /** What an object said of its controller when read; no controller when the reference names no such object. */
    private record Link(String controllerKind, String controllerUid, Instant read) {}

    private final Lookup lookup;
    private final Clock clock;
    private final Map<String, Link> links = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Link> eldest) {
            return size() > MAX_LINKS;
        }
    };

    OwnedPods(KubernetesClient client) {
        this(apps(client), Clock.systemUTC());
    }

    OwnedPods(Lookup lookup, Clock clock) {
        this.lookup = lookup;
        this.clock = clock;
    }

    private static Lookup apps(KubernetesClient client) {
        return (namespace, kind, name) -> Optional.ofNullable(
                        switch (kind) {
                            case "ReplicaSet" ->
                                client.apps()
                                        .replicaSets()
                                        .inNamespace(namespace)
                                        .withName(name)
                                        .get();
                            case "StatefulSet" ->
                                client.apps()
                                        .statefulSets()
                                        .inNamespace(namespace)
                                        .withName(name)
                                        .get();
                            default -> null;
                        })
                .map(HasMetadata::getMetadata);
    }

    /**
     * The pods among {@code pods} that the server's workload runs. {@code workloads} are the Deployments and
     * LeaderWorkerSets the operator's informers hold for the server; only those with the server's own names and an
     * owner reference to its UID count.
     */
    List<Pod> of(ModelServer server, Collection<? extends HasMetadata> workloads, List<Pod> pods) {
        Set<String> workloadUids = workloads.stream()
                .filter(workload -> isWorkloadOf(workload, server))
                .map(workload -> workload.getMetadata().getUid())
                .collect(Collectors.toSet());
        if (workloadUids.isEmpty()) {
            return List.of();
        }
        Map<String, Pod> byUid = pods.stream()
                .filter(pod -> pod.getMetadata().getUid() != null)
                .collect(Collectors.toMap(pod -> pod.getMetadata().getUid(), Function.identity(), (a, b) -> a));
        return pods.stream()
                .filter(pod -> runBy(pod, workloadUids, byUid, true))
                .toList();
    }

    private static boolean isWorkloadOf(HasMetadata workload, ModelServer server) {
        ObjectMeta metadata = workload.getMetadata();
        String serverUid = server.getMetadata().getUid();
        return (metadata.getName().equals(server.getMetadata().getName())
                        || metadata.getName().equals(ModelServerLabels.leaderWorkerSetName(server)))
                && metadata.getUid() != null
                && serverUid != null
                && metadata.getOwnerReferences().stream().anyMatch(owner -> serverUid.equals(owner.getUid()));
    }

    /**
     * Whether the pod's controller is a ReplicaSet or StatefulSet whose controller is one of the workloads, or, for a
     * worker ({@code mayBeWorker}), a StatefulSet whose controller is a leader pod that passes the same test.
     */
    private boolean runBy(Pod pod, Set<String> workloadUids, Map<String, Pod> pods, boolean mayBeWorker) {
        Optional<OwnerReference> controller = Owners.controllerOf(pod.getMetadata());
        if (controller.isEmpty() || !namesAnIntermediate(controller.get())) {
            return false;
        }
        OwnerReference reference = controller.get();
        String namespace = pod.getMetadata().getNamespace();
        String key = String.join("/", namespace, reference.getKind(), reference.getName(), reference.getUid());
        Link link = cached(key).orElseGet(() -> read(key, namespace, reference));
        boolean leads = leadsToWorkload(reference, link, workloadUids, pods, mayBeWorker);
        if (!leads && !link.read().plus(RECHECK).isAfter(clock.instant())) {
            leads = leadsToWorkload(reference, read(key, namespace, reference), workloadUids, pods, mayBeWorker);
        }
        return leads;
    }

    private boolean leadsToWorkload(
            OwnerReference reference, Link link, Set<String> workloadUids, Map<String, Pod> pods, boolean mayBeWorker) {
        if (link.controllerUid() == null) {
            return false;
        }
        if (workloadUids.contains(link.controllerUid())) {
            return true;
        }
        Pod leader = pods.get(link.controllerUid());
        return mayBeWorker
                && "StatefulSet".equals(reference.getKind())
                && "Pod".equals(link.controllerKind())
                && leader != null
                && runBy(leader, workloadUids, pods, false);
    }

    private static boolean namesAnIntermediate(OwnerReference reference) {
        return INTERMEDIATE_KINDS.contains(reference.getKind())
                && APPS_V1.equals(reference.getApiVersion())
                && reference.getUid() != null
                && reference.getName() != null
                && reference.getName().length() <= MAX_NAME_LENGTH
                && OBJECT_NAME.matcher(reference.getName()).matches();
    }

    private Optional<Link> cached(String key) {
        synchronized (links) {
            return Optional.ofNullable(links.get(key));
        }
    }

    /** Reads the object the reference names and keeps what it says of its controller, if it is that very object. */
    private Link read(String key, String namespace, OwnerReference reference) {
        Optional<OwnerReference> controller = lookup.find(namespace, reference.getKind(), reference.getName())
                .filter(object -> Objects.equals(reference.getUid(), object.getUid()))
                .flatMap(Owners::controllerOf);
        Link link = new Link(
                controller.map(OwnerReference::getKind).orElse(null),
                controller.map(OwnerReference::getUid).orElse(null),
                clock.instant());
        synchronized (links) {
            links.put(key, link);
        }
        return link;
    }
}
