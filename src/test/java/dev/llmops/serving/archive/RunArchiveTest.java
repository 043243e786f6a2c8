package dev.llmops.serving.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.type;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The archive's client against a store on loopback that answers as a real one may: what it writes where and in which
 * order, and what a refusal, a missing bucket, a silent port, a hostile message or an oversized object become.
 */
class RunArchiveTest {

    private static final String ACCESS_KEY_PROPERTY = "aws.accessKeyId";
    private static final String SECRET_KEY_PROPERTY = "aws.secretAccessKey";

    private HttpServer store;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private volatile Answer answer = Answer.ok();

    /** What the store answers every request with. */
    private record Answer(int status, String body, long announcedLength) {
        static Answer ok() {
            return new Answer(200, "", -1);
        }

        static Answer error(int status, String code, String message) {
            return new Answer(
                    status,
                    "<?xml version=\"1.0\"?><Error><Code>" + code + "</Code><Message>" + message + "</Message></Error>",
                    -1);
        }
    }

    @BeforeAll
    static void credentials() {
        System.setProperty(ACCESS_KEY_PROPERTY, "archiver");
        System.setProperty(SECRET_KEY_PROPERTY, "archive-secret");
    }

    @AfterAll
    static void noCredentials() {
        System.clearProperty(ACCESS_KEY_PROPERTY);
        System.clearProperty(SECRET_KEY_PROPERTY);
    }

    @BeforeEach
    void startStore() throws IOException {
        store = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        store.createContext("/", this::handle);
        store.start();
    }

    @AfterEach
    void stopStore() {
        store.stop(0);
    }

    @Test
    void writesTheRecordUnderItsKeysWithTheRunLast() {
        RunArchive.Written written = archive()
                .write(
                        "ml",
                        "nightly",
                        "uid-1",
                        List.of(
                                entry(RunArchive.RUN, "{}"),
                                entry(RunArchive.SAMPLES, "gz"),
                                entry(RunArchive.LLMD + "0_c8.yaml", "report")));

        assertThat(requests)
                .containsExactly(
                        "PUT /bucket/runs/ml/nightly/uid-1/samples.json.gz",
                        "PUT /bucket/runs/ml/nightly/uid-1/llmd/0_c8.yaml",
                        "PUT /bucket/runs/ml/nightly/uid-1/run.json");
        assertThat(written).isEqualTo(new RunArchive.Written("s3://bucket/runs/ml/nightly/uid-1/", 3, 10));
    }

    @Test
    void aRefusedSignatureSaysToCheckTheCredentialsSecret() {
        answer = Answer.error(403, "SignatureDoesNotMatch", "The request signature we calculated does not match");

        assertThatThrownBy(() -> archive().write("ml", "nightly", "uid", List.of(entry(RunArchive.RUN, "{}"))))
                .asInstanceOf(type(ArchiveException.class))
                .satisfies(e -> {
                    assertThat(e.kind()).isEqualTo(ArchiveException.Kind.AccessDenied);
                    assertThat(e.getMessage())
                            .startsWith("writing s3://bucket/runs/ml/nightly/uid/run.json: the store refused the"
                                    + " credentials or the request (SignatureDoesNotMatch)")
                            .contains("check the archive's credentials Secret");
                });
    }

    @Test
    void aMissingBucketIsNamed() {
        answer = Answer.error(404, "NoSuchBucket", "The specified bucket does not exist");

        assertThatThrownBy(() -> archive().latest("ml", "nightly"))
                .asInstanceOf(type(ArchiveException.class))
                .satisfies(e -> {
                    assertThat(e.kind()).isEqualTo(ArchiveException.Kind.NoSuchBucket);
                    assertThat(e.getMessage()).contains("the bucket does not exist");
                });
    }

    @Test
    void aStoreThatDoesNotAnswerIsUnreachable() {
        RunArchive archive = archive();
        store.stop(0);

        assertThatThrownBy(() -> archive.write("ml", "nightly", "uid", List.of(entry(RunArchive.RUN, "{}"))))
                .asInstanceOf(type(ArchiveException.class))
                .satisfies(e -> {
                    assertThat(e.kind()).isEqualTo(ArchiveException.Kind.Unreachable);
                    assertThat(e.getMessage()).contains("the store did not answer");
                });
    }

    @Test
    void aHostileStoresMessageIsShortened() {
        answer = Answer.error(400, "InvalidRequest", "x".repeat(100_000));

        assertThatThrownBy(() -> archive().write("ml", "nightly", "uid", List.of(entry(RunArchive.RUN, "{}"))))
                .asInstanceOf(type(ArchiveException.class))
                .satisfies(e -> {
                    assertThat(e.kind()).isEqualTo(ArchiveException.Kind.Failed);
                    assertThat(e.getMessage()).hasSizeLessThan(500).endsWith("…");
                });
    }

    @Test
    void anObjectLargerThanItMayHoldIsRefusedBeforeItIsRead() {
        answer = new Answer(200, "x".repeat(1000), 1000);

        assertThat(archive().read("runs/ml/nightly/uid/", RunArchive.SAMPLES, 1000))
                .hasValueSatisfying(bytes -> assertThat(bytes).hasSize(1000));
        assertThatThrownBy(() -> archive().read("runs/ml/nightly/uid/", RunArchive.SAMPLES, 999))
                .asInstanceOf(type(ArchiveException.class))
                .satisfies(e -> {
                    assertThat(e.kind()).isEqualTo(ArchiveException.Kind.Invalid);
                    assertThat(e.getMessage())
                            .isEqualTo("s3://bucket/runs/ml/nightly/uid/samples.json.gz holds 1000 bytes, more than"
                                    + " the 999 it may hold");
                });
    }

    @Test
    void anObjectThatIsNotThereIsNone() {
        answer = Answer.error(404, "NoSuchKey", "The specified key does not exist.");

        assertThat(archive().read("runs/ml/nightly/uid/", RunArchive.SAMPLES, 1000))
                .isEmpty();
    }

    private RunArchive archive() {
        return new RunArchive(
                new ArchiveLocation(
                        Optional.of(URI.create(
                                "http://127.0.0.1:" + store.getAddress().getPort())),
                        "bucket",
                        "/runs/",
                        "us-east-1",
                        true),
                Duration.ofSeconds(5));
    }

    private static RunArchive.Entry entry(String name, String content) {
        return new RunArchive.Entry(name, content.getBytes(StandardCharsets.UTF_8), "text/plain");
    }

    private void handle(HttpExchange exchange) throws IOException {
        exchange.getRequestBody().readAllBytes();
        requests.add(
                exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
        Answer now = answer;
        byte[] body = now.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders()
                .add("Content-Type", now.status() == 200 ? "application/octet-stream" : "application/xml");
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(now.status(), head || body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
        exchange.close();
    }
}
