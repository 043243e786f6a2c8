package dev.llmops.serving.e2e.support;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.opentest4j.TestAbortedException;

/**
 * The one owner of the packaged operator of an end-to-end test class, so that no class starts or stops it itself.
 * Declared on a static {@code @RegisterExtension} field of an {@link E2eTest} class, it holds the class's whole
 * installation (chart values, a withheld RBAC rule, replicas, restarts, what must happen before the start and after
 * the stop); it installs the project's CRDs and starts the operator before the class's own {@code @BeforeAll}
 * methods, stops it after its {@code @AfterAll} methods, and hands the process to tests that kill or restart it.
 */
public final class OperatorUnderTest implements BeforeAllCallback, AfterAllCallback {

    private static final Duration FIRST_REPLICA_LEADING_TIMEOUT = Duration.ofMinutes(1);

    /** Something the class does against its cluster and namespace around the operator's start or stop. */
    @FunctionalInterface
    public interface ClassStep {
        void run(E2eCluster cluster, TestNamespace namespace);
    }

    private final Map<String, Supplier<?>> values = new LinkedHashMap<>();
    private final List<String> withheldGrants = new ArrayList<>();
    private final List<String> replicaNames = new ArrayList<>();
    private final List<String> serversDeletedBeforeStop = new ArrayList<>();
    private final List<OperatorProcess> processes = new ArrayList<>();
    private ClassStep beforeStart = (cluster, namespace) -> {};
    private ClassStep afterStop = (cluster, namespace) -> {};
    private boolean needsFakeGpuFleet;
    private boolean awaitsReady = true;
    private boolean restartsWhenExited;

    private OperatorUnderTest() {}

    /** The operator as the chart installs it by default, into (and watching) the test class's namespace. */
    public static OperatorUnderTest installed() {
        return new OperatorUnderTest();
    }

    /** Skips the class, listed as not run, unless the cluster is the local control plane with its fake GPU fleet. */
    public OperatorUnderTest onFakeGpuFleet() {
        needsFakeGpuFleet = true;
        return this;
    }

    /** A Helm value, as {@code --set key=value}. */
    public OperatorUnderTest value(String key, Object value) {
        values.put(key, () -> value);
        return this;
    }

    /** Helm values, in their order, as {@link #value(String, Object)}. */
    public OperatorUnderTest values(Map<String, ?> keysAndValues) {
        keysAndValues.forEach(this::value);
        return this;
    }

    /** A Helm value known only once the steps before the start have run (a namespace they create). */
    public OperatorUnderTest valueAtStart(String key, Supplier<?> value) {
        values.put(key, value);
        return this;
    }

    /** Removes a resource (e.g. {@code jobs}) from every rule of the chart's RBAC. */
    public OperatorUnderTest withoutGrant(String resource) {
        withheldGrants.add(resource);
        return this;
    }

    /**
     * Replicas of these pod names instead of a single operator, started in this order, each once the one before is
     * ready and the first holds the leader-election Lease, so the first leads.
     */
    public OperatorUnderTest replicas(String... podNames) {
        replicaNames.addAll(Arrays.asList(podNames));
        return this;
    }

    /** Started without waiting for it to report ready: a test that expects it never to be ready. */
    public OperatorUnderTest notAwaitedReady() {
        awaitsReady = false;
        return this;
    }

    /** Once ready, started again whenever it exits, as the kubelet restarts the chart's Deployment. */
    public OperatorUnderTest restartedWhenExited() {
        restartsWhenExited = true;
        return this;
    }

    /** Runs after the CRDs are installed and before the operator starts. */
    public OperatorUnderTest beforeStart(ClassStep step) {
        beforeStart = step;
        return this;
    }

    /** Deletes these ModelServers, waiting until their pods are gone, while the operator still runs. */
    public OperatorUnderTest deletingServersBeforeStop(String... modelServers) {
        serversDeletedBeforeStop.addAll(Arrays.asList(modelServers));
        return this;
    }

    /** Runs once the operator has stopped, also when it never started. */
    public OperatorUnderTest afterStop(ClassStep step) {
        afterStop = step;
        return this;
    }

    /** The single operator's process. */
    public OperatorProcess process() {
        if (!replicaNames.isEmpty()) {
            throw new IllegalStateException("the class runs replicas " + replicaNames + "; ask for one by name");
        }
        return started().get(0);
    }

    /** The process of the replica of this pod name ({@link #replicas(String...)}). */
    public OperatorProcess replica(String podName) {
        return started().stream()
                .filter(process -> podName.equals(process.identity()))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no replica " + podName + " in " + replicaNames));
    }

    private List<OperatorProcess> started() {
        if (processes.isEmpty()) {
            throw new IllegalStateException("the operator has not started");
        }
        return processes;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        E2eCluster cluster = E2eClusterExtension.cluster(context);
        TestNamespace namespace = E2eClusterExtension.namespace(context);
        if (needsFakeGpuFleet && !cluster.hasFakeGpuFleet()) {
            TestAbortedException skipped = new TestAbortedException(
                    "Assumption failed: needs the fake GPU fleet and kubelet stand-in of the local control plane");
            E2eClusterExtension.recordSkippedClass(context, skipped);
            throw skipped;
        }
        ProjectCrds.install(cluster.client());
        beforeStart.run(cluster, namespace);
        if (replicaNames.isEmpty()) {
            start(cluster, namespace, null);
            return;
        }
        for (String podName : replicaNames) {
            if (!processes.isEmpty()) {
                OperatorProcess first = processes.get(0);
                await(first.identity() + " leading")
                        .atMost(FIRST_REPLICA_LEADING_TIMEOUT)
                        .pollInterval(Duration.ofMillis(250))
                        .until(first::leads);
            }
            start(cluster, namespace, podName);
        }
    }

    private void start(E2eCluster cluster, TestNamespace namespace, String podName) {
        OperatorProcess.Builder builder = OperatorProcess.in(cluster, namespace);
        values.forEach((key, value) -> builder.value(key, value.get()));
        withheldGrants.forEach(builder::withoutGrant);
        if (podName != null) {
            builder.replica(podName);
        }
        OperatorProcess process = builder.start();
        processes.add(process);
        if (awaitsReady) {
            process.awaitReady();
        }
        if (restartsWhenExited) {
            process.restartWhenExited();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        E2eCluster cluster = E2eClusterExtension.cluster(context);
        TestNamespace namespace = E2eClusterExtension.namespace(context);
        try {
            if (!processes.isEmpty()) {
                serversDeletedBeforeStop.forEach(
                        server -> ServingResources.deleteServer(cluster.client(), namespace, server));
            }
        } finally {
            try {
                for (int i = processes.size() - 1; i >= 0; i--) {
                    processes.get(i).close();
                }
            } finally {
                processes.clear();
                afterStop.run(cluster, namespace);
            }
        }
    }
}
