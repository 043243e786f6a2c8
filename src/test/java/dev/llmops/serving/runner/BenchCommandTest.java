package dev.llmops.serving.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmops.serving.cli.BenchCommand;
import dev.llmops.serving.simulator.Fault;
import dev.llmops.serving.simulator.SglangSimulator;
import dev.llmops.serving.simulator.SimulatedRequest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** The bench command through picocli, as the Job runs it: exit codes, messages and the files it leaves. */
class BenchCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    record Run(int exitCode, String out, String err) {
    }

    static Run bench(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine command = new CommandLine(new BenchCommand());
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        int code = command.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private static SglangSimulator fastSimulator() {
        return SglangSimulator.builder().ttft(Duration.ofMillis(5)).tokenDelay(Duration.ofMillis(1)).start();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--concurrency 0|every concurrency level must be between 1 and 4096",
        "--concurrency 8,8|concurrency levels must not repeat",
        "--dataset random|dataset random needs input-len and output-len",
        "--input-len 10|input-len and output-len apply only to dataset random",
        "--requests-per-level 5 --duration-per-level 3|set requests-per-level or duration-per-level, not both",
        "--endpoint foo|expected chat or completions, got foo",
        "--concurrency abc|Invalid value for option '--concurrency'",
        "--top-p 0|top-p must be above 0 and at most 1",
        "--rate -1|every rate must be above 0",
        "--api-key-env BENCH_TEST_UNSET_VARIABLE|environment variable BENCH_TEST_UNSET_VARIABLE is not set",
        "--no-single --no-sweep|nothing to measure"})
    void badConfigurationExitsTwoWithAOneLineReason(String options, String message) {
        List<String> args = new ArrayList<>(List.of("--url", "http://127.0.0.1:9", "--model", "m"));
        args.addAll(List.of(options.split(" ")));

        Run run = bench(args.toArray(String[]::new));

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().lines().findFirst().orElseThrow()).contains(message);
        assertThat(run.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void missingUrlExitsTwo() {
        Run run = bench("--model", "m");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Missing required option: '--url=<url>'");
    }

    @Test
    void unreachableTargetExitsThreeAndLeavesASummary() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        Path summary = dir.resolve("summary.json");

        Run run = bench("--url", "http://127.0.0.1:" + closedPort, "--model", "m", "--summary-file", summary.toString());

        assertThat(run.exitCode()).isEqualTo(BenchCommand.TARGET_NOT_READY);
        assertThat(run.err()).contains("not inference-ready: connect");
        JsonNode written = JSON.readTree(summary.toFile());
        assertThat(written.path("warn").get(0).asText()).contains("connect");
    }

    @Test
    void halfReadyServerExitsThree() {
        try (SglangSimulator simulator = SglangSimulator.builder().fault(Fault.HALF_READY).start()) {
            Run run = bench("--url", simulator.baseUrl().toString(), "--model", simulator.model());
            assertThat(run.exitCode()).isEqualTo(BenchCommand.TARGET_NOT_READY);
            assertThat(run.err()).contains("http_500").contains("no kernel image");
        }
    }

    @Test
    void everyMeasuredRequestFailingExitsFour() {
        // 99 % errors spread evenly: the first request (the readiness check) succeeds, the next 99 fail.
        try (SglangSimulator simulator = SglangSimulator.builder().errorRate(0.99).ttft(Duration.ZERO)
                .tokenDelay(Duration.ZERO).start()) {
            Run run = bench("--url", simulator.baseUrl().toString(), "--model", simulator.model(), "--warmup", "0",
                    "--concurrency", "4", "--requests-per-level", "20", "--max-tokens", "4");
            assertThat(run.exitCode()).as(run.err()).isEqualTo(BenchCommand.ALL_REQUESTS_FAILED);
            assertThat(run.err()).contains("every measured request failed").contains("http_500=23");
        }
    }

    @Test
    void successfulRunWritesReportSummaryAndProgress() throws IOException {
        Path report = dir.resolve("report.json");
        Path summary = dir.resolve("termination-log");
        try (SglangSimulator simulator = fastSimulator()) {
            Run run = bench("--url", simulator.baseUrl().toString(), "--model", simulator.model(), "--warmup", "2",
                    "--concurrency", "2,4", "--max-tokens", "16", "--json-out", report.toString(),
                    "--summary-file", summary.toString());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out().lines().filter(line -> line.startsWith("PROGRESS")).toList())
                    .containsExactly("PROGRESS 1/3 single", "PROGRESS 2/3 c2", "PROGRESS 3/3 c4");
            assertThat(run.err()).contains("stage").contains("TTFT p50/p99");
        }
        JsonNode full = JSON.readTree(report.toFile());
        JsonNode c4 = full.path("stages").get(2);
        assertThat(c4.path("name").asText()).isEqualTo("c4");
        for (String field : List.of("duration", "completed", "failed", "total_input_tokens", "total_output_tokens",
                "request_throughput", "output_throughput", "total_token_throughput", "mean_ttft_ms", "median_ttft_ms",
                "p99_ttft_ms", "mean_tpot_ms", "median_tpot_ms", "p99_tpot_ms", "mean_itl_ms", "median_itl_ms",
                "p99_itl_ms", "mean_e2e_latency_ms", "median_e2e_latency_ms", "p99_e2e_latency_ms", "max_concurrency",
                "concurrency")) {
            assertThat(c4.has(field)).as(field).isTrue();
        }
        assertThat(c4.path("completed").asInt()).isEqualTo(16);
        assertThat(c4.path("total_output_tokens").asInt()).isEqualTo(16 * 16);
        byte[] bytes = Files.readAllBytes(summary);
        assertThat(bytes.length).isLessThanOrEqualTo(CompactSummary.MAX_BYTES);
        CompactSummary compact = JSON.readValue(new String(bytes, StandardCharsets.UTF_8), CompactSummary.class);
        assertThat(compact.stages()).extracting(CompactSummary.Stage::name).containsExactly("single", "c2", "c4");
        assertThat(compact.singleRequests()).hasSize(3);
        assertThat(compact.truncated()).isNull();
    }

    @Test
    void requestsOutHasOneLinePerMeasuredRequestMatchingTheSimulatorsGroundTruth() throws IOException {
        Path requests = dir.resolve("requests.jsonl");
        List<SimulatedRequest> truth;
        try (SglangSimulator simulator = SglangSimulator.builder().ttft(Duration.ofMillis(20))
                .tokenDelay(Duration.ofMillis(5)).tokensPerChunk(2).start()) {
            Run run = bench("--url", simulator.baseUrl().toString(), "--model", simulator.model(), "--warmup", "1",
                    "--no-single", "--concurrency", "3", "--requests-per-level", "6", "--max-tokens", "9",
                    "--requests-out", requests.toString());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.err()).contains("lag p99");
            truth = simulator.requests();
        }
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(requests)) {
            lines.add(JSON.readTree(line));
        }
        assertThat(lines).hasSize(6).allSatisfy(line -> {
            assertThat(line.path("stage").asText()).isEqualTo("c3");
            assertThat(line.path("ok").asBoolean()).isTrue();
            SimulatedRequest served = truth.stream().filter(request -> request.id().equals(line.path("id").asText()))
                    .findFirst().orElseThrow();
            assertThat(line.path("output_tokens").asInt()).isEqualTo(served.completionTokens()).isEqualTo(9);
            assertThat(line.path("chunk_tokens")).extracting(JsonNode::asInt).containsExactly(2, 2, 2, 2, 1);
            long[] received = new long[line.path("chunk_ns").size()];
            for (int i = 0; i < received.length; i++) {
                received[i] = line.path("chunk_ns").get(i).asLong();
                assertThat(received[i]).as("chunk %d arrives after the simulator wrote it", i)
                        .isGreaterThanOrEqualTo(served.sentChunkNanos()[i]);
            }
            assertThat(line.path("first_token_ns").asLong()).isEqualTo(received[0]);
            assertThat(line.path("send_ns").asLong()).isLessThan(served.sentChunkNanos()[0]);
            assertThat(line.path("end_ns").asLong()).isGreaterThanOrEqualTo(received[received.length - 1]);
        });
    }

    @Test
    void anUnwritableRequestsOutExitsTwo() {
        Run run = bench("--url", "http://127.0.0.1:9", "--model", "m", "--requests-out",
                dir.resolve("missing/requests.jsonl").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--requests-out: cannot write");
    }
}
