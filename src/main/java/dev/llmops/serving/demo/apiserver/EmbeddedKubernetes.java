package dev.llmops.serving.demo.apiserver;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * A Kubernetes API on a loopback port with no cluster behind it: the fabric8 mock server's store in CRUD mode (with
 * server-side apply for one manager, and garbage collection by owner references), with this project's CRDs
 * installed, and the discovery, OpenAPI, Table, watch and pod log answers kubectl needs. Nothing schedules or runs
 * pods; the stand-ins in this package do.
 */
public final class EmbeddedKubernetes implements AutoCloseable {

    /** The CRDs as committed under deploy/crds, packaged on the classpath by the build. */
    static final List<String> CRD_RESOURCES = List.of(
            "/crds/modelservers.serving.llmops.dev-v1.yml",
            "/crds/benchmarkruns.serving.llmops.dev-v1.yml",
            "/crds/servingexperiments.serving.llmops.dev-v1.yml");

    private final ApiHttpServer server;
    private final KubernetesApiDispatcher dispatcher;
    private final String url;
    private final KubernetesClient client;

    private EmbeddedKubernetes(ApiHttpServer server, KubernetesApiDispatcher dispatcher, String url) {
        this.server = server;
        this.dispatcher = dispatcher;
        this.url = url;
        this.client = new KubernetesClientBuilder().withConfig(clientConfig()).build();
    }

    /** Starts the API on 127.0.0.1 (port 0 picks a free one) and installs the CRDs. */
    public static EmbeddedKubernetes start(int port) {
        var store = new ApplyAwareCrudDispatcher();
        var dispatcher = new KubernetesApiDispatcher(store, Clock.systemUTC());
        InetAddress loopback = InetAddress.getLoopbackAddress();
        ApiHttpServer server;
        try {
            server = ApiHttpServer.start(loopback, port, dispatcher, new HttpWatches(store, dispatcher.tables()));
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot start the embedded Kubernetes API on port " + port, e);
        }
        String host =
                loopback.getHostAddress().equals("127.0.0.1") ? "localhost" : "[" + loopback.getHostAddress() + "]";
        EmbeddedKubernetes kubernetes =
                new EmbeddedKubernetes(server, dispatcher, "http://" + host + ":" + server.port());
        kubernetes.installCrds();
        return kubernetes;
    }

    public String url() {
        return url;
    }

    public KubernetesClient client() {
        return client;
    }

    /** Client settings for this API: no kubeconfig, no namespace or credentials of the user's own cluster. */
    public Config clientConfig() {
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(url())
                .withNamespace("default")
                .withTrustCerts(true)
                .build();
    }

    /** Answers GET .../pods/NAME/log from the source, as kube-apiserver answers it from the pod's kubelet. */
    public void servePodLogs(PodLogSource source) {
        dispatcher.readPodLogsFrom(source);
    }

    /** Writes a kubeconfig for kubectl and returns its path. */
    public Path writeKubeconfig(Path file) {
        String kubeconfig = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: embedded
                  cluster:
                    server: %s
                contexts:
                - name: embedded
                  context:
                    cluster: embedded
                    user: embedded
                    namespace: default
                current-context: embedded
                users:
                - name: embedded
                  user: {}
                """.formatted(url());
        try {
            return Files.writeString(file, kubeconfig, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void installCrds() {
        for (String resource : CRD_RESOURCES) {
            try (InputStream in = EmbeddedKubernetes.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("CRD " + resource + " is missing from the classpath");
                }
                CustomResourceDefinition crd =
                        client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
                client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .resource(crd)
                        .create();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Override
    public void close() {
        client.close();
        server.close();
    }
}
