package dev.llmops.serving.e2e.support;

import static org.awaitility.Awaitility.await;

import dev.llmops.serving.operator.modelserver.LeaderWorkerSet;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import java.util.stream.Stream;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The real LeaderWorkerSet controller of the pinned release (hack/controlplane/lws/version) on the local control plane,
 * for the classes that need it: its CRDs installed, its webhooks served on loopback with a certificate made at start
 * and registered by URL (the release's webhook manifests, each service reference replaced), so LWS's own defaulting and
 * validation judge what the operator writes. Closing removes all of it again, so other classes' operators run without
 * the LeaderWorkerSet API, as in a cluster that never installed it.
 */
public final class LeaderWorkerSetController implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

    private final KubernetesClient client;
    private final List<HasMetadata> installed = new ArrayList<>();
    private ComponentProcess process;

    private LeaderWorkerSetController(KubernetesClient client) {
        this.client = client;
    }

    /** Installs the CRDs, starts the controller against the cluster and registers its webhooks. */
    public static LeaderWorkerSetController install(E2eCluster cluster) {
        return install(cluster.client(), cluster.kubeconfig(), ProjectPaths.resolve("target/e2e"));
    }

    /** As above, for the API server of the kubeconfig; its configuration, certificates and log go in workDirectory. */
    public static LeaderWorkerSetController install(KubernetesClient client, Path kubeconfig, Path workDirectory) {
        Path layout = layout();
        LeaderWorkerSetController controller = new LeaderWorkerSetController(client);
        try {
            controller.start(layout, kubeconfig, workDirectory);
            return controller;
        } catch (RuntimeException e) {
            controller.close();
            throw e;
        }
    }

    private static Path layout() {
        String version = LeaderWorkerSet.TESTED_VERSION;
        Path layout = ControlPlaneBinaries.layoutRoot().resolve("lws").resolve(version);
        if (!Files.isExecutable(layout.resolve("lws-controller"))) {
            throw new IllegalStateException("LeaderWorkerSet " + version + " is missing in " + layout + ": run "
                    + ControlPlaneBinaries.BUILD_SCRIPT + " first");
        }
        return layout;
    }

    private void start(Path layout, Path kubeconfig, Path workDirectory) {
        try (Stream<Path> crds = Files.list(layout.resolve("crds"))) {
            for (Path crd : crds.sorted().toList()) {
                installed.add(client.resource(load(crd, CustomResourceDefinition.class))
                        .serverSideApply());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        await("LeaderWorkerSet CRDs established")
                .atMost(Duration.ofSeconds(30))
                .until(() -> installed.stream().allMatch(this::established));

        Path directory = workDirectory.resolve("lws");
        Path certDirectory = directory.resolve("certs");
        String certificate = writeCertificate(certDirectory);
        int webhookPort = FreePort.any();
        int healthPort = FreePort.any();
        Path config = writeConfig(directory, webhookPort, healthPort, certDirectory, FreePort.any());
        process = ComponentProcess.start(
                layout.resolve("lws-controller"),
                List.of("--config=" + config, "--kubeconfig=" + kubeconfig, "--zap-log-level=info"),
                workDirectory.resolve("logs"));
        awaitHealthy(healthPort);
        registerWebhooks(layout.resolve("webhooks.yaml"), webhookPort, certificate);
    }

    private boolean established(HasMetadata crd) {
        CustomResourceDefinition current = client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(crd.getMetadata().getName())
                .get();
        return current != null
                && current.getStatus() != null
                && current.getStatus().getConditions() != null
                && current.getStatus().getConditions().stream()
                        .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** The release's webhooks by URL on loopback; its pod webhooks only for the pods of its groups. */
    private void registerWebhooks(Path manifests, int port, String certificate) {
        byte[] caBundle = certificate.getBytes(StandardCharsets.UTF_8);
        try {
            for (HasMetadata object :
                    client.load(Files.newInputStream(manifests)).items()) {
                if (object instanceof MutatingWebhookConfiguration mutating) {
                    mutating.getWebhooks().forEach(webhook -> {
                        webhook.setClientConfig(byUrl(webhook.getClientConfig(), port, caBundle));
                        if (isPodWebhook(webhook.getRules().get(0).getResources())) {
                            webhook.setObjectSelector(groupPods());
                        }
                    });
                } else if (object instanceof ValidatingWebhookConfiguration validating) {
                    validating.getWebhooks().forEach(webhook -> {
                        webhook.setClientConfig(byUrl(webhook.getClientConfig(), port, caBundle));
                        if (isPodWebhook(webhook.getRules().get(0).getResources())) {
                            webhook.setObjectSelector(groupPods());
                        }
                    });
                }
                object.getMetadata().setName("lws-" + object.getMetadata().getName());
                installed.add(client.resource(object).serverSideApply());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isPodWebhook(List<String> resources) {
        return resources.contains("pods");
    }

    private static LabelSelector groupPods() {
        return new LabelSelectorBuilder()
                .addNewMatchExpression()
                .withKey(LeaderWorkerSet.NAME_LABEL)
                .withOperator("Exists")
                .endMatchExpression()
                .build();
    }

    private static WebhookClientConfig byUrl(WebhookClientConfig declared, int port, byte[] caBundle) {
        WebhookClientConfig config = new WebhookClientConfig();
        config.setUrl("https://127.0.0.1:" + port + declared.getService().getPath());
        config.setCaBundle(Base64.getEncoder().encodeToString(caBundle));
        return config;
    }

    private void awaitHealthy(int healthPort) {
        HttpClient http = HttpClient.newHttpClient();
        URI readyz = URI.create("http://127.0.0.1:" + healthPort + "/readyz");
        await("the LeaderWorkerSet controller ready")
                .atMost(START_TIMEOUT)
                .pollInterval(Duration.ofMillis(250))
                .ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> {
                    process.assertAlive();
                    return http.send(HttpRequest.newBuilder(readyz).build(), HttpResponse.BodyHandlers.discarding())
                                    .statusCode()
                            == 200;
                });
    }

    private static Path writeConfig(Path directory, int webhookPort, int healthPort, Path certs, int metricsPort) {
        String config = """
                apiVersion: config.lws.x-k8s.io/v1alpha1
                kind: Configuration
                leaderElection:
                  leaderElect: false
                internalCertManagement:
                  enable: false
                webhook:
                  host: 127.0.0.1
                  port: %d
                  certDir: %s
                metrics:
                  bindAddress: 127.0.0.1:%d
                health:
                  healthProbeBindAddress: 127.0.0.1:%d
                """.formatted(webhookPort, certs, metricsPort, healthPort);
        try {
            Files.createDirectories(directory);
            Path file = directory.resolve("configuration.yaml");
            Files.writeString(file, config);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A self-signed serving certificate for 127.0.0.1 as tls.crt and tls.key (PKCS #8, which Go reads whatever the
     * key's encoding details); returns the certificate in PEM.
     */
    private static String writeCertificate(Path directory) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair keys = generator.generateKeyPair();
            X500Name subject = new X500Name("CN=lws-webhook");
            Instant now = Instant.now();
            var certificate = new JcaX509v3CertificateBuilder(
                            subject,
                            BigInteger.valueOf(now.toEpochMilli()),
                            Date.from(now.minus(Duration.ofMinutes(5))),
                            Date.from(now.plus(Duration.ofDays(1))),
                            subject,
                            keys.getPublic())
                    .addExtension(
                            Extension.subjectAlternativeName,
                            false,
                            new GeneralNames(new GeneralName(GeneralName.iPAddress, "127.0.0.1")))
                    .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate()));
            String certificatePem = pem(certificate);
            Files.createDirectories(directory);
            Files.writeString(directory.resolve("tls.crt"), certificatePem);
            Files.writeString(
                    directory.resolve("tls.key"),
                    "-----BEGIN PRIVATE KEY-----\n"
                            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                                    .encodeToString(keys.getPrivate().getEncoded())
                            + "\n-----END PRIVATE KEY-----\n");
            return certificatePem;
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot make the webhook's certificate", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String pem(X509CertificateHolder object) throws IOException {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        }
        return text.toString();
    }

    private <T extends HasMetadata> T load(Path file, Class<T> type) throws IOException {
        return client.getKubernetesSerialization().unmarshal(Files.readString(file), type);
    }

    /** Unregisters the webhooks (no pod or object is judged by a stopped server), then stops it, then the CRDs. */
    @Override
    public void close() {
        List<HasMetadata> newestFirst = new ArrayList<>(installed);
        Collections.reverse(newestFirst);
        for (HasMetadata object : newestFirst) {
            if (!(object instanceof CustomResourceDefinition)) {
                client.resource(object).delete();
            }
        }
        if (process != null) {
            process.close();
        }
        for (HasMetadata object : installed) {
            if (object instanceof CustomResourceDefinition) {
                client.resource(object).delete();
            }
        }
    }
}
