package dev.llmops.serving.perf;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import java.util.function.Predicate;

/**
 * Watches the benchmark namespace from outside the operator: when each child first appeared, and which ModelServers
 * and BenchmarkRuns carry a status of their current generation. Both arms are timed by the same watches.
 */
final class ScaleObserver implements AutoCloseable {

    private final Map<String, Long> deploymentSeen = new ConcurrentHashMap<>();
    private final Map<String, Long> serviceSeen = new ConcurrentHashMap<>();
    private final Set<String> serversWithStatus = ConcurrentHashMap.newKeySet();
    private final Set<String> runsWithStatus = ConcurrentHashMap.newKeySet();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

    ScaleObserver(KubernetesClient client) {
        informers.add(
                client.apps().deployments().inNamespace(ScaleWorkload.NAMESPACE).inform(firstSeen(deploymentSeen)));
        informers.add(client.services().inNamespace(ScaleWorkload.NAMESPACE).inform(firstSeen(serviceSeen)));
        informers.add(client.resources(ModelServer.class)
                .inNamespace(ScaleWorkload.NAMESPACE)
                .inform(statusOfGeneration(
                        serversWithStatus,
                        server -> server.getStatus() != null
                                && server.getMetadata()
                                        .getGeneration()
                                        .equals(server.getStatus().observedGeneration))));
        informers.add(client.resources(BenchmarkRun.class)
                .inNamespace(ScaleWorkload.NAMESPACE)
                .inform(statusOfGeneration(
                        runsWithStatus,
                        run -> run.getStatus() != null
                                && run.getMetadata().getGeneration().equals(run.getStatus().observedGeneration))));
    }

    /** Nanotime at which the Deployment of that name was first seen, or null. */
    Long deploymentSeen(String name) {
        return deploymentSeen.get(name);
    }

    int children() {
        return deploymentSeen.size() + serviceSeen.size();
    }

    int statuses() {
        return serversWithStatus.size() + runsWithStatus.size();
    }

    /** Waits until the count reaches the target; returns the nanotime it did. */
    static long await(String what, IntSupplier count, int target, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (count.getAsInt() < target) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "Timed out after " + timeout + " waiting for " + what + ": " + count.getAsInt() + "/" + target);
            }
            MeasuredOperator.sleep(Duration.ofMillis(20));
        }
        return System.nanoTime();
    }

    private static <T extends HasMetadata> ResourceEventHandler<T> firstSeen(Map<String, Long> seen) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
                seen.putIfAbsent(object.getMetadata().getName(), System.nanoTime());
            }

            @Override
            public void onUpdate(T before, T after) {}

            @Override
            public void onDelete(T object, boolean unknownFinalState) {}
        };
    }

    private static <T extends HasMetadata> ResourceEventHandler<T> statusOfGeneration(
            Set<String> names, Predicate<T> current) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
                onUpdate(null, object);
            }

            @Override
            public void onUpdate(T before, T after) {
                if (current.test(after)) {
                    names.add(after.getMetadata().getName());
                }
            }

            @Override
            public void onDelete(T object, boolean unknownFinalState) {}
        };
    }

    @Override
    public void close() {
        informers.forEach(SharedIndexInformer::close);
    }
}
