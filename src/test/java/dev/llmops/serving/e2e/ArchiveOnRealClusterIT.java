package dev.llmops.serving.e2e;

import static dev.llmops.serving.e2e.support.ServingResources.awaitFinished;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.ProjectPaths;
import dev.llmops.serving.e2e.support.S3Store;
import dev.llmops.serving.e2e.support.ServingResources;
import dev.llmops.serving.e2e.support.TestNamespace;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The results archive against a real S3-compatible store (S3Proxy, a process on loopback checking AWS signatures):
 * the operator, installed by the chart with results.s3 and a credentials Secret, writes each finished run's record,
 * reads a baseline deleted from the cluster back for a paired comparison, keeps a run its retention expires until it
 * is archived, retries a store that is down, and says when the store refuses its credentials.
 */
@E2eTest
class ArchiveOnRealClusterIT {

    private static final String SERVER = "archive-target";
    private static final String BUCKET = "benchmark-results";
    private static final String PREFIX = "nightly";
    private static final String CREDENTIALS = "archive-credentials";
    private static final Duration ARCHIVE_TIMEOUT = Duration.ofMinutes(2);
    /** Requests per level of a run compared with another: enough pairs for an interval. */
    private static final int PAIRED = 8;

    private static S3Store store;

    @RegisterExtension
    static final OperatorUnderTest operator = OperatorUnderTest.installed()
            .onFakeGpuFleet()
            .beforeStart((cluster, namespace) -> {
                store = S3Store.start(ProjectPaths.resolve("target/e2e/s3/" + namespace.name())
                        .toAbsolutePath());
                store.createBucket(BUCKET);
                cluster.client()
                        .resource(new SecretBuilder()
                                .withNewMetadata()
                                .withName(CREDENTIALS)
                                .withNamespace(namespace.name())
                                .endMetadata()
                                .addToStringData("AWS_ACCESS_KEY_ID", S3Store.ACCESS_KEY)
                                .addToStringData("AWS_SECRET_ACCESS_KEY", S3Store.SECRET_KEY)
                                .build())
                        .create();
                ServingResources.sm120Server(cluster.client(), namespace, SERVER, 1, 1);
            })
            .value("results.s3.enabled", true)
            .valueAtStart("results.s3.endpoint", () -> store.endpoint().toString())
            .value("results.s3.bucket", BUCKET)
            .value("results.s3.prefix", PREFIX)
            .value("results.s3.pathStyle", true)
            .value("results.s3.credentialsSecret", CREDENTIALS)
            .deletingServersBeforeStop(SERVER)
            .afterStop((cluster, namespace) -> {
                if (store != null) {
                    store.close();
                }
            });

    @Test
    void aFinishedRunIsArchivedWithItsSamplesAndReports(KubernetesClient client, TestNamespace namespace)
            throws Exception {
        create(client, namespace, "archived", "");
        BenchmarkRun run = awaitArchive(client, namespace, "archived", archived());

        assertThat(run.getStatus().phase).isEqualTo(BenchmarkRunPhase.Succeeded);
        String keys = PREFIX + "/" + namespace.name() + "/archived/"
                + run.getMetadata().getUid() + "/";
        assertThat(run.getStatus().archive.url).isEqualTo("s3://" + BUCKET + "/" + keys);
        assertThat(condition(run, "Archived").getStatus()).isEqualTo("True");
        assertThat(store.keys(BUCKET, keys).stream().filter(key -> !key.endsWith("/")))
                .as("the objects, without the store's directory entries")
                .contains(keys + "run.json", keys + "samples.json.gz")
                .anyMatch(key -> key.startsWith(keys + "llmd/") && key.endsWith("_c2.yaml"))
                .hasSize(run.getStatus().archive.objects);

        BenchmarkRun record = Serialization.unmarshal(
                new String(store.get(BUCKET, keys + "run.json"), StandardCharsets.UTF_8), BenchmarkRun.class);
        assertThat(record.getMetadata().getUid()).isEqualTo(run.getMetadata().getUid());
        assertThat(record.getStatus().stages).isEqualTo(run.getStatus().stages);
        assertThat(record.getStatus().provenance).isEqualTo(run.getStatus().provenance);
        assertThat(sha256(store.get(BUCKET, keys + "samples.json.gz")))
                .as("the archived samples are the bytes the ConfigMap holds")
                .isEqualTo(run.getStatus().samplesSha256);
    }

    /**
     * Last month's baseline, deleted from the cluster with its samples ConfigMap, still gives a comparison its paired
     * intervals: the operator reads the run and its samples back from the archive.
     */
    @Test
    void aBaselineDeletedFromTheClusterStillComparesFromTheArchive(KubernetesClient client, TestNamespace namespace) {
        create(client, namespace, "last-month", PAIRED, "");
        BenchmarkRun baseline = awaitArchive(client, namespace, "last-month", archived());
        client.resource(baseline).delete();
        await("the baseline and its samples ConfigMap to be gone")
                .atMost(Duration.ofMinutes(1))
                .until(() -> client.resources(BenchmarkRun.class)
                                        .inNamespace(namespace.name())
                                        .withName("last-month")
                                        .get()
                                == null
                        && client.configMaps()
                                        .inNamespace(namespace.name())
                                        .withName(baseline.getStatus().samples)
                                        .get()
                                == null);

        create(client, namespace, "this-month", PAIRED, "  baseline: last-month\n");
        BenchmarkRun candidate = awaitFinished(client, namespace, "this-month");

        assertThat(condition(candidate, "BaselineCompared"))
                .as("status %s", candidate.getStatus())
                .satisfies(compared -> assertThat(compared.getStatus()).isEqualTo("True"));
        assertThat(candidate.getStatus().comparison.stages)
                .filteredOn(stage -> stage.name.equals("c2"))
                .singleElement()
                .satisfies(stage -> assertThat(stage.throughputSpeedupInterval)
                        .as("a paired interval needs the baseline's samples")
                        .isNotNull());
    }

    /**
     * A store that is down when a run finishes: the run succeeds at once with Archived False and a retry time, its
     * expired retention keeps it until archived, and once the store is back the record is written and the run is
     * deleted, its record staying in the store.
     */
    @Test
    void aStoreThatIsDownIsRetriedAndHoldsAnExpiredRun(KubernetesClient client, TestNamespace namespace) {
        store.stop();
        BenchmarkRun waiting;
        try {
            create(client, namespace, "while-down", "  retention:\n    ttlSecondsAfterFinished: 0\n");
            waiting = awaitArchive(client, namespace, "while-down", failedWith("ArchiveUnreachable"));
            assertThat(waiting.getStatus().phase).isEqualTo(BenchmarkRunPhase.Succeeded);
            assertThat(waiting.getStatus().archive.failedAttempts).isPositive();
            assertThat(waiting.getStatus().archive.nextAttemptAt).isNotNull();
            assertThat(waiting.getStatus().retention.message).contains("Kept until it is archived");
            assertThat(events(client, namespace, "while-down")).contains("ArchiveUnreachable");
        } finally {
            store.startAgain(S3Store.SECRET_KEY);
        }
        String keys = PREFIX + "/" + namespace.name() + "/while-down/"
                + waiting.getMetadata().getUid() + "/";
        await("the run archived, then deleted under its retention")
                .atMost(ARCHIVE_TIMEOUT)
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> client.resources(BenchmarkRun.class)
                                .inNamespace(namespace.name())
                                .withName("while-down")
                                .get()
                        == null);
        assertThat(store.keys(BUCKET, keys)).contains(keys + "run.json");
        assertThat(events(client, namespace, "while-down")).contains("Archived", "Expired");
    }

    /** A run beyond its keepLast is deleted once a newer run of its target finished; its record stays. */
    @Test
    void aRunBeyondKeepLastGoesAndItsRecordStays(KubernetesClient client, TestNamespace namespace) {
        create(client, namespace, "older", "  retention:\n    keepLast: 1\n");
        BenchmarkRun older = awaitArchive(client, namespace, "older", archived());
        create(client, namespace, "newer", "");
        awaitFinished(client, namespace, "newer");

        await("the older run deleted")
                .atMost(ARCHIVE_TIMEOUT)
                .until(() -> client.resources(BenchmarkRun.class)
                                .inNamespace(namespace.name())
                                .withName("older")
                                .get()
                        == null);
        String keys = PREFIX + "/" + namespace.name() + "/older/"
                + older.getMetadata().getUid() + "/";
        assertThat(store.keys(BUCKET, keys)).contains(keys + "run.json", keys + "samples.json.gz");
    }

    /** A store that refuses the operator's credentials: a condition that names them, then archived once fixed. */
    @Test
    void credentialsTheStoreRefusesAreAClearCondition(KubernetesClient client, TestNamespace namespace) {
        store.startAgain("a-rotated-secret-the-operator-lacks");
        try {
            create(client, namespace, "refused", "");
            BenchmarkRun refused = awaitArchive(client, namespace, "refused", failedWith("ArchiveAccessDenied"));
            assertThat(refused.getStatus().phase).isEqualTo(BenchmarkRunPhase.Succeeded);
            assertThat(condition(refused, "Archived").getMessage())
                    .contains("refused the credentials")
                    .contains("credentials Secret");
        } finally {
            store.startAgain(S3Store.SECRET_KEY);
        }
        awaitArchive(client, namespace, "refused", archived());
    }

    @Test
    void theChartGrantsEveryCallTheOperatorMade() {
        operator.process().assertNothingForbidden();
    }

    private static void create(KubernetesClient client, TestNamespace namespace, String name, String extraSpec) {
        create(client, namespace, name, 4, extraSpec);
    }

    private static void create(
            KubernetesClient client, TestNamespace namespace, String name, int requests, String extraSpec) {
        ServingResources.createRun(
                client, namespace, ServingResources.quickRunManifest(name, SERVER, "2", requests, 16, extraSpec));
    }

    private static BenchmarkRun awaitArchive(
            KubernetesClient client, TestNamespace namespace, String name, Predicate<BenchmarkRun> archive) {
        return await(name + "'s archive")
                .atMost(ARCHIVE_TIMEOUT)
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> client.resources(BenchmarkRun.class)
                                .inNamespace(namespace.name())
                                .withName(name)
                                .get(),
                        archive);
    }

    private static Predicate<BenchmarkRun> archived() {
        return run -> run != null
                && run.getStatus() != null
                && run.getStatus().archive != null
                && run.getStatus().archive.url != null;
    }

    private static Predicate<BenchmarkRun> failedWith(String reason) {
        return run -> run != null
                && run.getStatus() != null
                && run.getStatus().conditions.stream()
                        .anyMatch(c ->
                                c.getType().equals("Archived") && c.getReason().equals(reason));
    }

    private static Condition condition(BenchmarkRun run, String type) {
        return run.getStatus().conditions.stream()
                .filter(c -> c.getType().equals(type))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " condition in " + run.getStatus()));
    }

    private static List<String> events(KubernetesClient client, TestNamespace namespace, String run) {
        return client.v1().events().inNamespace(namespace.name()).list().getItems().stream()
                .filter(event -> event.getInvolvedObject().getName().equals(run))
                .map(event -> event.getReason())
                .toList();
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
