package dev.llmops.serving.e2e.support;

import dev.llmops.serving.demo.SimulatedServerProfile;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The cluster the end-to-end suite runs against: by default a local control plane built from source with a fake GPU
 * fleet; with {@code -De2e.useExistingCluster=true}, the cluster KUBECONFIG points to.
 */
public final class E2eCluster implements AutoCloseable {

    public static final String USE_EXISTING_CLUSTER = "e2e.useExistingCluster";

    private final KubernetesClient client;
    private final Path kubeconfig;
    private final String kubectl;
    private final Optional<LocalControlPlane> localControlPlane;

    private E2eCluster(
            KubernetesClient client, Path kubeconfig, String kubectl, Optional<LocalControlPlane> localControlPlane) {
        this.client = client;
        this.kubeconfig = kubeconfig;
        this.kubectl = kubectl;
        this.localControlPlane = localControlPlane;
    }

    static E2eCluster start(Path workDirectory) {
        if (Boolean.getBoolean(USE_EXISTING_CLUSTER)) {
            return new E2eCluster(
                    new KubernetesClientBuilder().build(), existingKubeconfig(), "kubectl", Optional.empty());
        }
        ControlPlaneBinaries binaries = ControlPlaneBinaries.locate();
        LocalControlPlane controlPlane = LocalControlPlane.start(binaries, workDirectory);
        return new E2eCluster(
                controlPlane.client(),
                controlPlane.kubeconfig(),
                binaries.path("kubectl").toString(),
                Optional.of(controlPlane));
    }

    /** A client with cluster-admin rights. */
    public KubernetesClient client() {
        return client;
    }

    /** A kubeconfig file for processes that talk to the cluster: the operator under test, kubectl. */
    public Path kubeconfig() {
        return kubeconfig;
    }

    /** Whether the nodes of {@link FakeGpuNodes#FLEET} are registered (local control plane only). */
    public boolean hasFakeGpuFleet() {
        return localControlPlane.isPresent();
    }

    /**
     * Makes the simulated servers of the ModelServer's pods behave as the profile says (local control plane only; set
     * it before the pods start).
     */
    public void simulate(TestNamespace namespace, String modelServer, SimulatedServerProfile profile) {
        localControlPlane
                .orElseThrow(() -> new IllegalStateException("only the local control plane simulates servers"))
                .simulate(namespace.name(), modelServer, profile);
    }

    /** See {@link LocalControlPlane#simulatePod} (local control plane only). */
    public void simulatePod(TestNamespace namespace, String podName, SimulatedServerProfile profile) {
        localControlPlane().simulatePod(namespace.name(), podName, profile);
    }

    /** Stops kube-apiserver alone, etcd running on (local control plane only); see {@link LocalControlPlane}. */
    public void stopApiServer() {
        localControlPlane().stopApiServer();
    }

    /** Starts kube-apiserver again as it was and returns when it answers ready (local control plane only). */
    public Instant startApiServer() {
        return localControlPlane().startApiServer();
    }

    /** Freezes kube-apiserver for a while, then lets it go on (local control plane only). */
    public void pauseApiServer(Duration pause) {
        localControlPlane().pauseApiServer(pause);
    }

    private LocalControlPlane localControlPlane() {
        return localControlPlane.orElseThrow(
                () -> new IllegalStateException("only the local control plane does this, not an existing cluster"));
    }

    /** The API server's audit of service-account calls (local control plane only). */
    public Optional<ApiAudit> audit() {
        return localControlPlane.map(LocalControlPlane::audit);
    }

    /** Runs kubectl against the cluster and returns its standard output; fails with its output when it fails. */
    public String kubectl(String... args) {
        List<String> command = new ArrayList<>(List.of(kubectl, "--kubeconfig=" + kubeconfig, "--request-timeout=30s"));
        command.addAll(List.of(args));
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output;
            try (var out = process.getInputStream()) {
                output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(command + " did not finish within 60 s");
            }
            if (process.exitValue() != 0) {
                throw new AssertionError(command + " exited with " + process.exitValue() + ":\n" + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while running " + command, e);
        }
    }

    private static Path existingKubeconfig() {
        String setting = System.getenv("KUBECONFIG");
        if (setting == null || setting.isBlank()) {
            return Path.of(System.getProperty("user.home"), ".kube", "config");
        }
        return Path.of(setting.split(File.pathSeparator)[0]);
    }

    @Override
    public void close() {
        if (localControlPlane.isPresent()) {
            localControlPlane.get().close();
        } else {
            client.close();
        }
    }
}
