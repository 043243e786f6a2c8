package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.e2e.support.ProjectPaths;
import dev.llmops.serving.e2e.support.S3Store;
import dev.llmops.serving.report.RunLoader;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code report history --s3} as a user runs it, from the packaged jar in its production profile: the runs the operator
 * archived, read from a real S3-compatible store with the credentials of the environment; a store that refuses them,
 * and a record larger than any run's, are refused with one line.
 */
class ArchivedHistoryIT {

    private static final Path JAR = ProjectPaths.resolve("target/quarkus-app/quarkus-run.jar");
    private static final Path RECORDED =
            ProjectPaths.resolve("src/test/resources/report/benchmarkrun-autoregressive.yaml");
    private static final String BUCKET = "history";
    private static final String TARGET = "kimi-k2-autoregressive";

    private static S3Store store;

    @BeforeAll
    static void archiveThreeNightsAndAnotherNamespace() throws IOException {
        store = S3Store.start(ProjectPaths.resolve("target/e2e/s3/history").toAbsolutePath());
        store.createBucket(BUCKET);
        RunLoader loader = new RunLoader();
        try (S3Client s3 = store.client()) {
            for (int night = 3; night >= 1; night--) {
                BenchmarkRun run = loader.load(Files.readString(RECORDED), "recorded");
                run.getMetadata().setName("nightly-" + night);
                run.getMetadata().setNamespace("ml");
                run.getMetadata().setUid("uid-" + night);
                run.getStatus().completionTime = "2026-12-0" + night + "T02:00:00Z";
                put(s3, "runs/ml/nightly-" + night + "/uid-" + night + "/run.json", Serialization.asJson(run));
            }
            BenchmarkRun elsewhere = loader.load(Files.readString(RECORDED), "recorded");
            elsewhere.getMetadata().setNamespace("staging");
            put(s3, "runs/staging/run/uid/run.json", Serialization.asJson(elsewhere));
            put(s3, "runs/huge/run/uid/run.json", "x".repeat(5 << 20));
        }
    }

    @AfterAll
    static void stopStore() {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void rendersANamespacesArchivedRunsInFinishingOrder(@TempDir Path dir) throws Exception {
        Result csv = history(dir, S3Store.SECRET_KEY, "ml", "--format", "csv");

        assertThat(csv.exitCode()).as(csv.err()).isZero();
        List<String> lines = csv.out().lines().toList();
        assertThat(lines).as("a header, 3 runs of 6 stages").hasSize(1 + 3 * 6);
        assertThat(lines.subList(1, lines.size()))
                .extracting(line -> line.split(",")[1])
                .containsSubsequence("nightly-1", "nightly-2", "nightly-3")
                .doesNotContain("kimi-k2-autoregressive");
    }

    @Test
    void credentialsTheStoreRefusesExitWithOneLine(@TempDir Path dir) throws Exception {
        Result refused = history(dir, "not-the-secret", "ml");

        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err().lines()).singleElement().asString().contains("refused the credentials");
    }

    @Test
    void aRecordLargerThanAnyRunIsRefused(@TempDir Path dir) throws Exception {
        Result huge = history(dir, S3Store.SECRET_KEY, "huge");

        assertThat(huge.exitCode()).isEqualTo(2);
        assertThat(huge.err().lines())
                .singleElement()
                .asString()
                .contains("runs/huge/run/uid/run.json holds 5242880 bytes, more than the 4194304 it may hold");
    }

    private record Result(int exitCode, String out, String err) {}

    private static Result history(Path dir, String secretKey, String namespace, String... more) throws Exception {
        assertThat(JAR)
                .as("the packaged jar (mvn package runs before this test)")
                .exists();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                JAR.toString(),
                "report",
                "history",
                "--s3",
                "s3://" + BUCKET + "/runs",
                "--namespace",
                namespace,
                "--s3-endpoint",
                store.endpoint().toString(),
                "--s3-path-style",
                "--target",
                TARGET));
        command.addAll(List.of(more));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("out").toFile())
                .redirectError(dir.resolve("err").toFile());
        builder.environment().put("AWS_ACCESS_KEY_ID", S3Store.ACCESS_KEY);
        builder.environment().put("AWS_SECRET_ACCESS_KEY", secretKey);
        Process process = builder.start();
        assertThat(process.waitFor(2, TimeUnit.MINUTES))
                .as("report history exited")
                .isTrue();
        return new Result(
                process.exitValue(), Files.readString(dir.resolve("out")), Files.readString(dir.resolve("err")));
    }

    private static void put(S3Client s3, String key, String content) {
        s3.putObject(put -> put.bucket(BUCKET).key(key), RequestBody.fromString(content, StandardCharsets.UTF_8));
    }
}
