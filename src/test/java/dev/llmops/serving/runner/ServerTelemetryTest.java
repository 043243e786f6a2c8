package dev.llmops.serving.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.llmops.serving.runner.output.BenchmarkReport;
import dev.llmops.serving.runner.output.CompactSummaryWriter;
import dev.llmops.serving.runner.output.ServerStageReport;
import dev.llmops.serving.runner.output.StageReport;
import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.transport.CompletionRequest;
import dev.llmops.serving.runner.transport.OpenAiClient;
import dev.llmops.serving.simulator.SglangSimulator;
import dev.llmops.serving.simulator.SpeculativeAcceptance;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server figures of each stage, read from real SGLang simulators' /metrics over loopback: acceptance length
 * against the simulator's ground truth, gauges against the load, several replicas summed, the cache hit rate from
 * counters a stub moves between a stage's readings, and targets whose metrics are missing or hostile costing a warning,
 * never the run.
 */
class ServerTelemetryTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static OpenAiClient client;

    @BeforeAll
    static void createClient() {
        client = OpenAiClient.create();
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    /** The simulators' speculative ground truth at each stage's start and end. */
    static final class GroundTruth implements BenchmarkListener {
        private final List<SglangSimulator> simulators;
        private final Map<String, long[]> started = new ConcurrentHashMap<>();
        private final Map<String, long[]> moved = new ConcurrentHashMap<>();

        GroundTruth(SglangSimulator... simulators) {
            this.simulators = List.of(simulators);
        }

        private long[] totals() {
            long tokens = 0;
            long steps = 0;
            for (SglangSimulator simulator : simulators) {
                tokens += simulator.speculativeTotals().acceptedTokens();
                steps += simulator.speculativeTotals().verifySteps();
            }
            return new long[] {tokens, steps};
        }

        @Override
        public void stageStarted(StagePlan stage, int index, int total) {
            started.put(stage.name(), totals());
        }

        @Override
        public void stageFinished(StageReport report, int done, int total) {
            long[] end = totals();
            long[] start = started.get(report.name());
            moved.put(report.name(), new long[] {end[0] - start[0], end[1] - start[1]});
        }

        double acceptLength(String stage) {
            return (double) moved.get(stage)[0] / moved.get(stage)[1];
        }

        long tokens(String stage) {
            return moved.get(stage)[0];
        }
    }

    private static BenchmarkConfig.Builder config(URI target, String model) {
        return BenchmarkConfig.builder(target, model)
                .singleRequests(false)
                .warmupRequests(1)
                .warmupMaxTokens(4)
                .timeout(Duration.ofSeconds(30));
    }

    private static StageReport stage(BenchmarkReport report, String name) {
        return report.stages().stream()
                .filter(stage -> stage.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void acceptanceLengthPerStageMatchesTheSimulatorsGroundTruthAndRunningRequestsTheConcurrency() throws Exception {
        SpeculativeAcceptance acceptance = SpeculativeAcceptance.of(List.of(0.2, 0.3, 0.5));
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(10))
                .tokenDelay(Duration.ofMillis(5))
                .speculative(acceptance)
                .acceptanceSeed(7)
                .recordGroundTruth(false)
                .start()) {
            GroundTruth truth = new GroundTruth(simulator);
            BenchmarkReport report = new BenchmarkRunner(
                            config(simulator.baseUrl(), simulator.model())
                                    .concurrency(List.of(4, 12))
                                    .maxTokens(240)
                                    .build(),
                            client,
                            truth)
                    .run();

            for (String name : List.of("c4", "c12")) {
                StageReport stage = stage(report, name);
                ServerStageReport server = stage.server();
                assertThat(server).as(name).isNotNull();
                double expected = truth.acceptLength(name);
                assertThat(server.specAcceptLength()).as(name).isCloseTo(expected, within(expected * 0.02));
                assertThat(stage.specAcceptLength()).isEqualTo(server.specAcceptLength());
                assertThat(expected).as("draws follow the distribution").isCloseTo(acceptance.mean(), within(0.15));
                assertThat(server.generatedTokens()).isEqualTo((double) truth.tokens(name));
                assertThat(server.generationThroughput())
                        .isCloseTo(stage.outputThroughput(), within(stage.outputThroughput() * 0.25));
                assertThat(server.samples()).isPositive();
                assertThat(server.runningRequestsMax()).as(name).isEqualTo((double) stage.maxConcurrency());
                assertThat(server.runningRequestsMean()).isLessThanOrEqualTo(stage.maxConcurrency());
                assertThat(server.queuedRequestsMax()).isZero();
                assertThat(server.kvUsageMax()).isNotNull();
                assertThat(server.cacheHitRateSource()).isEqualTo("counters");
                assertThat(server.cacheHitRate())
                        .as("random prompts share no prefix")
                        .isZero();
            }
            assertThat(report.warnings()).noneMatch(warning -> warning.contains("metrics"));

            JsonNode json = JSON.valueToTree(report).path("stages").get(0);
            assertThat(json.path("spec_accept_length").asDouble()).isGreaterThan(1);
            assertThat(json.path("server").path("running_requests_max").asDouble())
                    .isEqualTo(4);
            JsonNode summary = JSON.readTree(CompactSummaryWriter.write(report));
            assertThat(summary.path("stages").get(0).path("acc").asDouble())
                    .isCloseTo(stage(report, "c4").specAcceptLength(), within(0.01));
        }
    }

    @Test
    void replicasAreReadOneByOneAndSummed() throws Exception {
        try (SglangSimulator measured = SglangSimulator.builder()
                        .ttft(Duration.ofMillis(10))
                        .tokenDelay(Duration.ofMillis(5))
                        .speculative(SpeculativeAcceptance.exactly(2))
                        .recordGroundTruth(false)
                        .start();
                SglangSimulator other = SglangSimulator.builder()
                        .ttft(Duration.ofMillis(10))
                        .tokenDelay(Duration.ofMillis(5))
                        .speculative(SpeculativeAcceptance.exactly(4))
                        .recordGroundTruth(false)
                        .start()) {
            AtomicBoolean loading = new AtomicBoolean(true);
            Runnable[] stream = new Runnable[1];
            CompletionRequest background = CompletionRequest.builder(other.baseUrl(), other.model())
                    .maxTokens(400)
                    .timeout(Duration.ofSeconds(30))
                    .build()
                    .withPrompt("background");
            stream[0] = () -> {
                if (loading.get()) {
                    client.complete(background).whenComplete((result, error) -> stream[0].run());
                }
            };
            stream[0].run();
            stream[0].run();
            try {
                GroundTruth truth = new GroundTruth(measured, other);
                BenchmarkReport report = new BenchmarkRunner(
                                config(measured.baseUrl(), measured.model())
                                        .concurrency(List.of(6))
                                        .maxTokens(200)
                                        .metricsUrls(List.of(
                                                ServerTelemetry.defaultMetricsUrl(measured.baseUrl()),
                                                ServerTelemetry.defaultMetricsUrl(other.baseUrl())))
                                        .build(),
                                client,
                                truth)
                        .run();

                ServerStageReport server = stage(report, "c6").server();
                assertThat(server.endpoints()).isEqualTo(2);
                assertThat(server.runningRequestsMax())
                        .as("both replicas' streams")
                        .isGreaterThan(6);
                assertThat(server.generatedTokens()).isCloseTo(truth.tokens("c6"), within(truth.tokens("c6") * 0.05));
                assertThat(server.specAcceptLength())
                        .as("between the replicas' 2 and 4")
                        .isGreaterThan(2.2)
                        .isLessThan(3.8)
                        .isCloseTo(truth.acceptLength("c6"), within(truth.acceptLength("c6") * 0.05));
            } finally {
                loading.set(false);
            }
        }
    }

    @Test
    void aTargetWithoutUsableMetricsGivesOneWarningAndTheRunSucceeds() throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                        .ttft(Duration.ofMillis(5))
                        .tokenDelay(Duration.ofMillis(1))
                        .start();
                Stub notFound = Stub.answering(404, "text/plain", "404 page not found\n".getBytes());
                Stub html = Stub.answering(200, "text/html", "<html><body>Hello</body></html>".getBytes())) {
            for (URI metrics : List.of(notFound.url(), html.url(), closedPort())) {
                BenchmarkReport report = new BenchmarkRunner(
                                config(simulator.baseUrl(), simulator.model())
                                        .concurrency(List.of(2, 4))
                                        .maxTokens(10)
                                        .metricsUrls(List.of(metrics))
                                        .build(),
                                client,
                                new BenchmarkListener() {})
                        .run();
                assertThat(report.completed()).as(metrics.toString()).isEqualTo(24);
                assertThat(report.stages())
                        .allMatch(stage -> stage.server() == null && stage.specAcceptLength() == null);
                assertThat(report.warnings())
                        .filteredOn(warning -> warning.startsWith("server metrics unavailable at " + metrics))
                        .hasSize(1);
            }
            assertThat(notFound.requests()).as("asked once, then no more").isEqualTo(1);
        }
    }

    @Test
    void aHostileMetricsEndpointIsBoundedAndDoesNotFailTheRun() throws Exception {
        byte[] huge = new byte[20 * 1024 * 1024];
        java.util.Arrays.fill(huge, (byte) 'x');
        String garbage = "garbage without value\n{\"json\":true}\nsglang:num_running_reqs{model_name=\"m\" 3\n"
                + "sglang:num_running_reqs{model_name=\"m\"} not-a-number\n"
                + "sglang:generation_tokens_total{a=\"}\"} 12\n"
                + "sglang:num_running_reqs 2\n\u0000\u00ff\n";
        try (SglangSimulator simulator = SglangSimulator.builder()
                        .ttft(Duration.ofMillis(5))
                        .tokenDelay(Duration.ofMillis(1))
                        .start();
                Stub big = Stub.answering(200, "text/plain", huge);
                Stub mixed = Stub.answering(200, "text/plain", garbage.getBytes(StandardCharsets.UTF_8))) {
            BenchmarkReport oversized = new BenchmarkRunner(
                            config(simulator.baseUrl(), simulator.model())
                                    .concurrency(List.of(2))
                                    .maxTokens(10)
                                    .metricsUrls(List.of(big.url()))
                                    .build(),
                            client,
                            new BenchmarkListener() {})
                    .run();
            assertThat(oversized.completed()).isEqualTo(8);
            assertThat(oversized.warnings()).anyMatch(warning -> warning.contains("larger than 8 MiB"));

            BenchmarkReport garbled = new BenchmarkRunner(
                            config(simulator.baseUrl(), simulator.model())
                                    .concurrency(List.of(2))
                                    .maxTokens(10)
                                    .metricsUrls(List.of(mixed.url()))
                                    .build(),
                            client,
                            new BenchmarkListener() {})
                    .run();
            assertThat(garbled.completed()).isEqualTo(8);
            ServerStageReport server = garbled.stages().get(0).server();
            assertThat(server).as("the readable lines still count").isNotNull();
            assertThat(server.generatedTokens()).isZero();
            assertThat(server.specAcceptLength()).isNull();
        }
    }

    @Test
    void theCacheHitRateIsTheStagesCachedOverPromptTokensOrAfterACounterResetTheGauge() throws Exception {
        List<String> warnings = new ArrayList<>();
        try (Stub metrics = Stub.answering(200, "text/plain", cacheMetrics(1000, 150, 50, 0.9));
                ServerTelemetry telemetry = new ServerTelemetry(List.of(metrics.url()), warnings::add)) {
            telemetry.stageStarted("c4");
            metrics.answer(cacheMetrics(5000, 2150, 1050, 0.9));
            ServerStageReport counted = telemetry.stageFinished("c4");
            telemetry.stageStarted("c8");
            metrics.answer(cacheMetrics(5600, 100, 0, 0.4));
            ServerStageReport restarted = telemetry.stageFinished("c8");

            assertThat(counted.cacheHitRate())
                    .as("3000 of the stage's 4000 prompt tokens cached, over both cache sources")
                    .isCloseTo(0.75, within(1e-9));
            assertThat(counted.cacheHitRateSource()).isEqualTo("counters");
            assertThat(restarted.cacheHitRate())
                    .as("the cached-token counters went back: the server restarted during the stage")
                    .isCloseTo(0.4, within(1e-9));
            assertThat(restarted.cacheHitRateSource()).isEqualTo("gauge");
            assertThat(warnings).isEmpty();
        }
    }

    @Test
    void afterAGoodReadFailedReadsDoNotStopLaterReads() throws Exception {
        byte[] broken = "<html><body>502 Bad Gateway</body></html>".getBytes(StandardCharsets.UTF_8);
        List<String> warnings = new ArrayList<>();
        try (Stub metrics = Stub.answering(200, "text/plain", cacheMetrics(1000, 100, 0, 0.1));
                ServerTelemetry telemetry = new ServerTelemetry(List.of(metrics.url()), warnings::add)) {
            telemetry.stageStarted("c1");
            metrics.answer(cacheMetrics(2000, 600, 0, 0.5));
            ServerStageReport first = telemetry.stageFinished("c1");
            telemetry.stageStarted("c2");
            metrics.answer(broken);
            ServerStageReport endUnread = telemetry.stageFinished("c2");
            telemetry.stageStarted("c4");
            ServerStageReport startUnread = telemetry.stageFinished("c4");
            metrics.answer(cacheMetrics(3000, 1100, 0, 0.5));
            telemetry.stageStarted("c8");
            int asked = metrics.requests();
            metrics.answer(cacheMetrics(7000, 4100, 0, 0.75));
            ServerStageReport later = telemetry.stageFinished("c8");

            assertThat(first.cacheHitRate()).isCloseTo(0.5, within(1e-9));
            assertThat(endUnread).isNull();
            assertThat(startUnread).isNull();
            assertThat(metrics.requests()).as("the end of c8 was read").isGreaterThan(asked);
            assertThat(later).as("a good read after failed ones is used").isNotNull();
            assertThat(later.cacheHitRate())
                    .as("3000 of the stage's 4000 prompt tokens cached")
                    .isCloseTo(0.75, within(1e-9));
            assertThat(warnings)
                    .singleElement()
                    .asString()
                    .startsWith("server metrics unavailable at " + metrics.url())
                    .contains("from stage c2");
        }
    }

    /** SGLang's prompt and cached-token counters (two cache sources) and its cache hit rate gauge. */
    private static byte[] cacheMetrics(long prompt, long cachedOnDevice, long cachedOnHost, double hitRate) {
        return ("# TYPE sglang:prompt_tokens_total counter\n"
                        + "sglang:prompt_tokens_total{model_name=\"m\"} " + prompt + "\n"
                        + "# TYPE sglang:cached_tokens_total counter\n"
                        + "sglang:cached_tokens_total{cache_source=\"device\",model_name=\"m\"} " + cachedOnDevice
                        + "\n"
                        + "sglang:cached_tokens_total{cache_source=\"host\",model_name=\"m\"} " + cachedOnHost
                        + "\n"
                        + "# TYPE sglang:cache_hit_rate gauge\n"
                        + "sglang:cache_hit_rate{model_name=\"m\"} " + hitRate + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static URI closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/metrics");
        }
    }

    /** A loopback HTTP server answering every request alike until told another answer, counting them. */
    private record Stub(
            HttpServer server, java.util.concurrent.atomic.AtomicInteger count, AtomicReference<byte[]> answer)
            implements AutoCloseable {
        static Stub answering(int status, String contentType, byte[] body) throws IOException {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            var count = new java.util.concurrent.atomic.AtomicInteger();
            AtomicReference<byte[]> answer = new AtomicReference<>(body);
            server.createContext("/", exchange -> {
                count.incrementAndGet();
                byte[] current = answer.get();
                exchange.getResponseHeaders().set("Content-Type", contentType);
                exchange.sendResponseHeaders(status, current.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(current);
                } catch (IOException clientWentAway) {
                    exchange.close();
                }
            });
            server.start();
            return new Stub(server, count, answer);
        }

        /** The body of every later answer. */
        void answer(byte[] body) {
            answer.set(body);
        }

        URI url() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/metrics");
        }

        int requests() {
            return count.get();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
