package dev.llmops.serving.runner.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmops.serving.api.contract.CompactSummary;
import dev.llmops.serving.api.contract.RunnerExitCode;
import dev.llmops.serving.api.contract.RunnerFlags;
import dev.llmops.serving.cli.Cli;
import dev.llmops.serving.runner.workload.ShareGptDatasetTest;
import dev.llmops.serving.simulator.Fault;
import dev.llmops.serving.simulator.SglangSimulator;
import dev.llmops.serving.simulator.SimulatedRequest;
import java.io.IOException;
import java.net.InetAddress;
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

/** The bench command through picocli, as the Job runs it: exit codes, messages and the files it leaves. */
class BenchCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The trace hack/traces/make-mooncake-trace.py writes with its defaults. */
    private static final String TRACE = "src/test/resources/traces/conversations.jsonl";

    @TempDir
    Path dir;

    private static final String BENCH = "llm-serving-operator bench: ";
    private static final String TRY_HELP = "Try 'llm-serving-operator bench --help' for more information.";

    static Cli.Run bench(String... args) {
        List<String> command = new ArrayList<>(List.of("bench"));
        command.addAll(List.of(args));
        return Cli.run(command.toArray(String[]::new));
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static SglangSimulator fastSimulator() {
        return SglangSimulator.builder()
                .ttft(Duration.ofMillis(5))
                .tokenDelay(Duration.ofMillis(1))
                .start();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--concurrency 0|Invalid value for option '--concurrency': 0 has a level outside 1 to 4096",
                "--concurrency 8,8|Invalid value for option '--concurrency': 8,8 repeats a level",
                "--dataset prompts --input-len 10|--input-len applies only to --dataset random",
                "--dataset prompts --output-len 10|--output-len does not apply to --dataset prompts",
                "--dataset sharegpt|Invalid value for option '--dataset': expected sharegpt:FILE, got sharegpt",
                "--dataset random:5|Invalid value for option '--dataset': expected random:IN,OUT, got random:5",
                "--dataset random:5,x|Invalid value for option '--dataset': expected random:IN,OUT with whole numbers,"
                        + " got random:5,x",
                "--dataset random:5,0|--input-len and --output-len must be at least 1, got 5 and 0",
                "--dataset random:5,6 --output-len 3|Invalid value for option '--dataset': random:5,6 already gives the"
                        + " lengths: drop --input-len and --output-len",
                "--dataset shared-prefix:4,100|Invalid value for option '--dataset': expected"
                        + " shared-prefix:GROUPS,PREFIX_TOKENS,QUESTION_TOKENS, got shared-prefix:4,100",
                "--dataset shared-prefix:0,100,10|Invalid value for option '--dataset': shared-prefix:0,100,10 has 0"
                        + " groups, outside 1 to 10000",
                "--dataset shared-prefix:1000,100000,10|Invalid value for option '--dataset':"
                        + " shared-prefix:1000,100000,10 asks for 1000 × 100000 prefix tokens, more than 2097152",
                "--dataset prompts:x|Invalid value for option '--dataset': expected prompts (it takes no parameters),"
                        + " got prompts:x",
                "--dataset squad|Invalid value for option '--dataset': expected prompts, random, random:IN,OUT,"
                        + " sharegpt:FILE, shared-prefix:GROUPS,PREFIX_TOKENS,QUESTION_TOKENS, trace:FILE or"
                        + " sessions:TURNS,FIRST_TOKENS,TURN_TOKENS, got squad",
                "--dataset sessions:4,100|Invalid value for option '--dataset': expected"
                        + " sessions:TURNS,FIRST_TOKENS,TURN_TOKENS, got sessions:4,100",
                "--dataset sessions:0,100,10|Invalid value for option '--dataset': sessions:0,100,10 has 0 turns,"
                        + " outside 1 to 64",
                "--dataset sessions:64,100000,10000 --max-tokens 8192|Invalid value for option '--dataset':"
                        + " sessions:64,100000,10000 makes its last turn 1246096 words long with 8192-token replies,"
                        + " more than 1048576",
                "--dataset sessions:64,10000,1000 --output-len 100 --concurrency 8,512|Invalid value for option"
                        + " '--dataset': sessions:64,10000,1000 would hold up to 40601600 words of history at once"
                        + " in 512 streams, more than 33554432: fewer streams or turns, or shorter messages",
                "--dataset sessions:4,100,10 --rate 5|--dataset sessions runs one user per --concurrency stream, each"
                        + " holding a conversation; --rate and --find-capacity do not apply",
                "--dataset sessions:4,100,10 --session-header X:Session|Invalid value for option '--dataset':"
                        + " sessions:4,100,10 has the session header X:Session, not an HTTP header name of at most 64"
                        + " characters",
                "--dataset sessions:4,100,10 --think-time 601|Invalid value for option '--think-time': 601 is"
                        + " outside 0 to 600 seconds",
                "--think-time 2|Invalid value for option '--think-time': 2 applies only to --dataset"
                        + " sessions:TURNS,FIRST_TOKENS,TURN_TOKENS",
                "--session-header X-Routing|Invalid value for option '--session-header': X-Routing applies only to"
                        + " --dataset sessions:TURNS,FIRST_TOKENS,TURN_TOKENS",
                "--dataset trace|Invalid value for option '--dataset': expected trace:FILE, got trace",
                "--dataset trace:" + TRACE + " --concurrency 8|--dataset trace replays the trace at its own"
                        + " timestamps, one stage per --trace-speed; --concurrency, --rate and --find-capacity do not"
                        + " apply",
                "--dataset trace:" + TRACE + " --trace-speed 2,2|the trace replay (--trace-speed, --trace-window)"
                        + " repeats a speed",
                "--dataset trace:" + TRACE + " --trace-window 50|the trace replay (--trace-speed, --trace-window) has"
                        + " no request in its window of 50 to the end s",
                "--dataset trace:" + TRACE + " --trace-window 1,2,3|Invalid value for option '--trace-window': 1,2,3"
                        + " is not FROM or FROM,TO seconds",
                "--trace-speed 2|Invalid value for option '--trace-speed': 2 applies only to --dataset trace:FILE",
                "--trace-window 0,5|Invalid value for option '--trace-window': 0,5 applies only to --dataset"
                        + " trace:FILE",
                "--dataset trace:" + TRACE + " --rate 2 --arrival trace|Invalid value for option '--arrival':"
                        + " expected poisson or constant, got trace",
                "--requests-per-level 5 --duration-per-level 3|set --requests-per-level or --duration-per-level, "
                        + "not both",
                "--endpoint foo|Invalid value for option '--endpoint': expected chat or completions, got foo",
                "--concurrency abc|Invalid value for option '--concurrency' (N): 'abc' is not an int",
                "--top-p 0|Invalid value for option '--top-p': 0.0 is not above 0 and at most 1",
                "--rate -1|Invalid value for option '--rate': -1.0 has a rate outside (0, 100000] requests per second",
                "--timeout 0|Invalid value for option '--timeout': 0 is not a positive number of seconds",
                "--warmup -1|Invalid value for option '--warmup': -1 is negative; use 0 for no warm-up",
                "--api-key-env BENCH_TEST_UNSET_VARIABLE|Invalid value for option '--api-key-env': "
                        + "BENCH_TEST_UNSET_VARIABLE is not set in the environment (export it or drop the option)",
                "--no-single --no-sweep|nothing to measure: --no-single and --no-sweep leave no stage; drop one or "
                        + "give --rate",
                "--concurency 8|Unknown options: '--concurency', '8' (did you mean --concurrency?)",
                "--rate 5 --arrival uniform|Invalid value for option '--arrival': expected poisson or constant, got "
                        + "uniform",
                "--max-concurrency 4|--max-concurrency caps the requests in flight of rate stages: give --rate, "
                        + "--find-capacity rate or --dataset trace:FILE",
                "--rate 5 --max-concurrency 0|Invalid value for option '--max-concurrency': 0 is outside 1 to 4096",
                "--slo-ttft-p99-ms 0|Invalid value for option '--slo-ttft-p99-ms': 0.0 is not a positive number of "
                        + "milliseconds",
                "--slo-attainment 0|Invalid value for option '--slo-attainment': 0.0 is not above 0 and at most 1",
                "--slo-attainment 1.01|Invalid value for option '--slo-attainment': 1.01 is not above 0 and at most 1",
                "--find-capacity rate|--find-capacity needs an SLO to search against: give at least one of "
                        + "--slo-ttft-p99-ms, --slo-tpot-p99-ms, --slo-itl-p99-ms, --slo-e2e-p99-ms",
                "--find-capacity speed|Invalid value for option '--find-capacity': expected concurrency or rate, got "
                        + "speed",
                "--slo-e2e-p99-ms 900 --find-capacity rate --max-probes 0|Invalid value for option '--max-probes': 0 "
                        + "is outside 1 to 64",
                "--quality --quality-max-tokens 0|Invalid value for option '--quality-max-tokens': 0 is outside 1 to"
                        + " 4096",
                "--samples-log --json-out -|Invalid value for option '--samples-log': true prints on stdout, which"
                        + " --json-out - keeps for the report alone: give --json-out a FILE",
                "--metrics-url ftp://pod:9000/metrics|Invalid value for option '--metrics-url' (URL):"
                        + " ftp://pod:9000/metrics is not a server URL: it needs http:// or https:// and a host, e.g."
                        + " http://10.0.0.5:30000"
            })
    void badConfigurationExitsTwoWithOneLineNamingTheOptionAndAPointerToHelp(String options, String message) {
        List<String> args = new ArrayList<>(List.of("--url", "http://127.0.0.1:9", "--model", "m"));
        args.addAll(List.of(options.split(" ")));

        Cli.Run run = bench(args.toArray(String[]::new));

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).containsExactly("llm-serving-operator bench: " + message, TRY_HELP);
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aMissingOrSchemelessUrlExitsTwo() {
        Cli.Run missing = bench("--model", "m");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.errLines())
                .containsExactly("llm-serving-operator bench: Missing required option: '--url=URL'", TRY_HELP);

        Cli.Run noScheme = bench("--url", "127.0.0.1:30000", "--model", "m");
        assertThat(noScheme.exitCode()).isEqualTo(2);
        assertThat(noScheme.errLines())
                .containsExactly(
                        "llm-serving-operator bench: Invalid value for option '--url': 127.0.0.1:30000"
                                + " is not a server URL: it needs http:// or https:// and a host, e.g. "
                                + "http://10.0.0.5:30000",
                        TRY_HELP);
    }

    @Test
    void fileOptionsSayWhatIsWrongWithTheFile() throws IOException {
        Path missing = dir.resolve("nope.txt");
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");

        assertThat(bench("--url", "http://127.0.0.1:9", "--model", "m", "--prompts-file", missing.toString())
                        .errLines())
                .first()
                .isEqualTo(BENCH + "Invalid value for option '--prompts-file': " + missing + " does not exist");
        assertThat(bench("--url", "http://127.0.0.1:9", "--model", "m", "--prompts-file", dir.toString())
                        .errLines())
                .first()
                .isEqualTo(BENCH + "Invalid value for option '--prompts-file': " + dir + " is a directory, not a file");
        assertThat(bench("--url", "http://127.0.0.1:9", "--model", "m", "--json-out", dir.toString())
                        .errLines())
                .first()
                .isEqualTo(BENCH + "Invalid value for option '--json-out': " + dir + " is a directory, not a file");
        Path inFile = notADirectory.resolve("summary.json");
        Cli.Run run = bench("--url", "http://127.0.0.1:9", "--model", "m", "--summary-file", inFile.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines())
                .containsExactly(
                        "llm-serving-operator bench: Invalid value for option '--summary-file': " + inFile
                                + " cannot be created: directory " + notADirectory + " does not exist",
                        TRY_HELP);
    }

    @Test
    void unreachableTargetExitsThreeNamingTheCauseAndLeavesASummary() throws IOException {
        int closedPort = closedPort();
        Path summary = dir.resolve("summary.json");

        Cli.Run run =
                bench("--url", "http://127.0.0.1:" + closedPort, "--model", "m", "--summary-file", summary.toString());

        assertThat(run.exitCode()).isEqualTo(RunnerExitCode.TARGET_NOT_READY.code());
        assertThat(run.err())
                .contains("bench: the target is unreachable: connect: no response from http://127.0.0.1:" + closedPort
                        + "/v1/chat/completions: connection refused: nothing is listening on that port");
        JsonNode written = JSON.readTree(summary.toFile());
        assertThat(written.path("warn").get(0).asText()).contains("connection refused");
    }

    @Test
    void halfReadyServerExitsThree() {
        try (SglangSimulator simulator =
                SglangSimulator.builder().fault(Fault.HALF_READY).start()) {
            Cli.Run run = bench("--url", simulator.baseUrl().toString(), "--model", simulator.model());
            assertThat(run.exitCode()).isEqualTo(RunnerExitCode.TARGET_NOT_READY.code());
            assertThat(run.err()).contains("http_500").contains("no kernel image");
        }
    }

    @Test
    void everyMeasuredRequestFailingExitsFour() {
        // 99 % errors spread evenly: the first request (the readiness check) succeeds, the next 99 fail.
        try (SglangSimulator simulator = SglangSimulator.builder()
                .errorRate(0.99)
                .ttft(Duration.ZERO)
                .tokenDelay(Duration.ZERO)
                .start()) {
            Cli.Run run = bench(
                    "--url",
                    simulator.baseUrl().toString(),
                    "--model",
                    simulator.model(),
                    "--warmup",
                    "0",
                    "--concurrency",
                    "4",
                    "--requests-per-level",
                    "20",
                    "--max-tokens",
                    "4");
            assertThat(run.exitCode()).as(run.err()).isEqualTo(RunnerExitCode.ALL_REQUESTS_FAILED.code());
            assertThat(run.err()).contains("every measured request failed").contains("http_500=23");
        }
    }

    @Test
    void successfulRunWritesTheTableToStdoutProgressToStderrAndTheFiles() throws IOException {
        Path report = dir.resolve("report.json");
        Path summary = dir.resolve("termination-log");
        try (SglangSimulator simulator = fastSimulator()) {
            Cli.Run run = bench(
                    "--url",
                    simulator.baseUrl().toString(),
                    "--model",
                    simulator.model(),
                    "--warmup",
                    "2",
                    "--concurrency",
                    "2,4",
                    "--max-tokens",
                    "16",
                    "--json-out",
                    report.toString(),
                    "--summary-file",
                    summary.toString());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.err()
                            .lines()
                            .filter(line -> line.startsWith("PROGRESS"))
                            .toList())
                    .containsExactly("PROGRESS 0/3 single", "PROGRESS 1/3 c2", "PROGRESS 2/3 c4", "PROGRESS 3/3");
            assertThat(run.out().lines().map(line -> line.split(" +")[0]).toList())
                    .containsExactly("stage", "single", "c2", "c4");
            assertThat(run.out()).contains("TTFT ms p50/p99");
            assertThat(run.err()).contains("target ready").doesNotContain("TTFT ms p50/p99");
        }
        JsonNode full = JSON.readTree(report.toFile());
        JsonNode c4 = full.path("stages").get(2);
        assertThat(c4.path("name").asText()).isEqualTo("c4");
        for (String field : List.of(
                "duration",
                "completed",
                "failed",
                "total_input_tokens",
                "total_output_tokens",
                "request_throughput",
                "output_throughput",
                "total_token_throughput",
                "mean_ttft_ms",
                "median_ttft_ms",
                "p99_ttft_ms",
                "mean_tpot_ms",
                "median_tpot_ms",
                "p99_tpot_ms",
                "mean_itl_ms",
                "median_itl_ms",
                "p99_itl_ms",
                "mean_e2e_latency_ms",
                "median_e2e_latency_ms",
                "p99_e2e_latency_ms",
                "max_concurrency",
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
    void progressNamesTheQualityStageWhileItRuns() {
        try (SglangSimulator simulator = fastSimulator()) {
            String[] common = {
                "--url",
                simulator.baseUrl().toString(),
                "--model",
                simulator.model(),
                "--warmup",
                "0",
                "--max-tokens",
                "8",
                "--quality",
                "--quality-max-tokens",
                "8"
            };
            Cli.Run sweep = bench(concat(common, "--concurrency", "2"));
            Cli.Run singleOnly = bench(concat(common, "--no-sweep"));

            assertThat(progressLines(sweep))
                    .containsExactly("PROGRESS 0/2 single", "PROGRESS 1/2 quality", "PROGRESS 1/2 c2", "PROGRESS 2/2");
            assertThat(progressLines(singleOnly))
                    .as("after the last stage, progress is finished again once the quality stage is done")
                    .containsExactly("PROGRESS 0/1 single", "PROGRESS 1/1", "PROGRESS 1/1 quality", "PROGRESS 1/1");
        }
    }

    private static String[] concat(String[] first, String... second) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(List.of(second));
        return all.toArray(String[]::new);
    }

    private static List<String> progressLines(Cli.Run run) {
        assertThat(run.exitCode()).as(run.err()).isZero();
        return run.err().lines().filter(line -> line.startsWith("PROGRESS")).toList();
    }

    @Test
    void requestsOutHasOneLinePerMeasuredRequestMatchingTheSimulatorsGroundTruth() throws IOException {
        Path requests = dir.resolve("requests.jsonl");
        List<SimulatedRequest> truth;
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(20))
                .tokenDelay(Duration.ofMillis(5))
                .tokensPerChunk(2)
                .start()) {
            Cli.Run run = bench(
                    "--url",
                    simulator.baseUrl().toString(),
                    "--model",
                    simulator.model(),
                    "--warmup",
                    "1",
                    "--no-single",
                    "--concurrency",
                    "3",
                    "--requests-per-level",
                    "6",
                    "--max-tokens",
                    "9",
                    "--requests-out",
                    requests.toString());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).contains("lag ms p99");
            truth = simulator.requests();
        }
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(requests)) {
            lines.add(JSON.readTree(line));
        }
        assertThat(lines).hasSize(6).allSatisfy(line -> {
            assertThat(line.path("stage").asText()).isEqualTo("c3");
            assertThat(line.path("ok").asBoolean()).isTrue();
            SimulatedRequest served = truth.stream()
                    .filter(request -> request.id().equals(line.path("id").asText()))
                    .findFirst()
                    .orElseThrow();
            assertThat(line.path("output_tokens").asInt())
                    .isEqualTo(served.completionTokens())
                    .isEqualTo(9);
            assertThat(line.path("chunk_tokens")).extracting(JsonNode::asInt).containsExactly(2, 2, 2, 2, 1);
            long[] received = new long[line.path("chunk_ns").size()];
            for (int i = 0; i < received.length; i++) {
                received[i] = line.path("chunk_ns").get(i).asLong();
                assertThat(received[i])
                        .as("chunk %d arrives after the simulator wrote it", i)
                        .isGreaterThanOrEqualTo(served.sentChunkNanos()[i]);
            }
            assertThat(line.path("first_token_ns").asLong()).isEqualTo(received[0]);
            assertThat(line.path("send_ns").asLong()).isLessThan(served.sentChunkNanos()[0]);
            assertThat(line.path("end_ns").asLong()).isGreaterThanOrEqualTo(received[received.length - 1]);
        });
    }

    @Test
    void aCapacitySearchCountsItsProbesAgainstTheBudgetAndReportsWhereItStopped() throws IOException {
        Path report = dir.resolve("report.json");
        Path summary = dir.resolve("termination-log");
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(5))
                .tokenDelay(Duration.ofMillis(4))
                .batchSlowdown(1)
                .start()) {
            Cli.Run run = bench(
                    "--url",
                    simulator.baseUrl().toString(),
                    "--model",
                    simulator.model(),
                    "--warmup",
                    "1",
                    "--no-single",
                    "--no-sweep",
                    "--max-tokens",
                    "16",
                    "--ignore-eos",
                    "--requests-per-level",
                    "12",
                    "--slo-tpot-p99-ms",
                    "14",
                    "--slo-attainment",
                    "0.9",
                    "--find-capacity",
                    "concurrency",
                    "--max-probes",
                    "3",
                    "--json-out",
                    report.toString(),
                    "--summary-file",
                    summary.toString());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.err()
                            .lines()
                            .filter(line -> line.startsWith("PROGRESS"))
                            .toList())
                    .containsExactly(
                            "PROGRESS 0/3 probe1-c1",
                            "PROGRESS 1/3 probe2-c2",
                            "PROGRESS 2/3 probe3-c4",
                            "PROGRESS 3/3");
            assertThat(run.out())
                    .as("the table ends with the capacity")
                    .containsPattern("(?m)^capacity: 2 streams \\(budget-exhausted after 3 probes\\); there [0-9.]+ out"
                            + " tok/s, SLO attainment [01]\\.[0-9]{3}$");
        }
        JsonNode full = JSON.readTree(report.toFile());
        assertThat(full.path("slo").path("tpot_p99_ms").asDouble()).isEqualTo(14);
        assertThat(full.path("slo").path("attainment").asDouble()).isEqualTo(0.9);
        JsonNode capacity = full.path("capacity");
        assertThat(capacity.path("mode").asText()).isEqualTo("concurrency");
        assertThat(capacity.path("outcome").asText()).isEqualTo("budget-exhausted");
        assertThat(capacity.path("max_concurrency").asInt()).isEqualTo(2);
        assertThat(capacity.path("reason").asText()).contains("all 3 probes were used", "4 streams missed it");
        assertThat(capacity.path("p99_tpot_ms").asDouble()).isBetween(6.0, 14.0);
        assertThat(capacity.path("probes").findValuesAsText("name"))
                .containsExactly("probe1-c1", "probe2-c2", "probe3-c4");
        assertThat(capacity.path("probes").findValues("met"))
                .extracting(JsonNode::asBoolean)
                .containsExactly(true, true, false);
        JsonNode probe = full.path("stages").get(2);
        for (String field : List.of("slo_attainment", "goodput_request_rate", "goodput_output_throughput")) {
            assertThat(probe.has(field)).as(field).isTrue();
        }
        CompactSummary compact = JSON.readValue(Files.readString(summary), CompactSummary.class);
        assertThat(compact.version()).isEqualTo(2);
        assertThat(compact.capacity().mode()).isEqualTo("concurrency");
        assertThat(compact.capacity().concurrency()).isEqualTo(2);
        assertThat(compact.capacity().outcome()).isEqualTo("budget-exhausted");
        assertThat(compact.capacity().probes()).isEqualTo(3);
        assertThat(compact.stages().get(2).sloAttainment()).isLessThan(0.9);
    }

    @Test
    void theHelpDescribesEveryNewFlag() {
        Cli.Run run = bench("--help");

        for (String flag : List.of(
                RunnerFlags.ARRIVAL,
                RunnerFlags.MAX_CONCURRENCY,
                RunnerFlags.SLO_TTFT,
                RunnerFlags.SLO_TPOT,
                RunnerFlags.SLO_ITL,
                RunnerFlags.SLO_E2E,
                RunnerFlags.SLO_ATTAINMENT,
                RunnerFlags.FIND_CAPACITY,
                RunnerFlags.MAX_PROBES,
                RunnerFlags.MAX_SEARCH_SECONDS,
                RunnerFlags.METRICS_URL)) {
            assertThat(run.out().lines().filter(line -> line.contains(flag)))
                    .as(flag)
                    .isNotEmpty();
        }
        assertThat(run.out()).contains("poisson", "constant", "(0,1]", "bisect");
    }

    @Test
    void anUnwritableRequestsOutExitsTwo() {
        Cli.Run run = bench(
                "--url",
                "http://127.0.0.1:9",
                "--model",
                "m",
                "--requests-out",
                dir.resolve("missing/requests.jsonl").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines())
                .first()
                .asString()
                .startsWith("llm-serving-operator bench: Invalid value for option '--requests-out': ")
                .endsWith("cannot be created: directory " + dir.resolve("missing") + " does not exist");
    }

    @Test
    void jsonOutDashLeavesOnlyTheJsonReportOnStdout() throws IOException {
        try (SglangSimulator simulator = fastSimulator()) {
            Cli.Run run = bench(
                    "--url",
                    simulator.baseUrl().toString(),
                    "--model",
                    simulator.model(),
                    "--warmup",
                    "1",
                    "--concurrency",
                    "2",
                    "--max-tokens",
                    "8",
                    "--json-out",
                    "-");

            assertThat(run.exitCode()).as(run.err()).isZero();
            JsonNode report = JSON.reader()
                    .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .readTree(run.out());
            assertThat(report.path("stages"))
                    .extracting(stage -> stage.path("name").asText())
                    .containsExactly("single", "c2");
            assertThat(run.err()).contains("TTFT ms p50/p99").contains("PROGRESS 2/2");
        }
    }

    @Test
    void aShareGptFileIsReadFromTheDatasetFlagAndItsSkippedRecordsAreReported() throws IOException {
        Path file = Files.writeString(
                dir.resolve("conversations.json"),
                Files.readString(ShareGptDatasetTest.SAMPLE).replaceFirst("\\[", "[42, {\"conversations\": []},"));
        try (SglangSimulator simulator = fastSimulator()) {
            Cli.Run run = bench(
                    "--url",
                    simulator.baseUrl().toString(),
                    "--model",
                    simulator.model(),
                    "--warmup",
                    "0",
                    "--no-single",
                    "--concurrency",
                    "2",
                    "--requests-per-level",
                    "8",
                    "--dataset",
                    "sharegpt:" + file,
                    "--max-tokens",
                    "6",
                    "--json-out",
                    "-");

            assertThat(run.exitCode()).as(run.err()).isZero();
            JsonNode report = JSON.readTree(run.out());
            String skipped = "dataset " + file + ": 8 usable conversations of 10 records read; 2 skipped (1 no user"
                    + " turn with text, 1 not an object with a conversations array)";
            assertThat(report.path("dataset").asText()).isEqualTo("sharegpt");
            assertThat(report.path("warnings")).extracting(JsonNode::asText).contains(skipped);
            assertThat(run.errLines()).contains("warning: " + skipped);
            assertThat(simulator.requests().stream()
                            .sorted(java.util.Comparator.comparingLong(SimulatedRequest::receivedNanos))
                            .skip(1)
                            .map(SimulatedRequest::maxTokens))
                    .as("the readiness check asks for 8, then the dataset's requests")
                    .hasSize(8)
                    .as("each reply's estimated length, at most --max-tokens")
                    .contains(2, 5, 6)
                    .allMatch(maxTokens -> maxTokens <= 6);
        }
    }

    @Test
    void aShareGptFileWithoutUsableConversationsExitsTwoSayingWhy() throws IOException {
        Path file = Files.writeString(dir.resolve("empty.json"), "[{\"conversations\": [{\"from\": \"gpt\"}]}]");
        Path missing = dir.resolve("missing.json");

        Cli.Run unusable = bench("--url", "http://127.0.0.1:9", "--model", "m", "--dataset", "sharegpt:" + file);
        Cli.Run absent = bench("--url", "http://127.0.0.1:9", "--model", "m", "--dataset", "sharegpt:" + missing);

        assertThat(unusable.exitCode()).isEqualTo(2);
        assertThat(unusable.errLines())
                .containsExactly(
                        BENCH + "Invalid value for option '--dataset': sharegpt:" + file + " holds no usable"
                                + " conversation: 0 usable conversations of 1 records read; 1 skipped (1 no user turn"
                                + " with text)",
                        TRY_HELP);
        assertThat(absent.errLines())
                .first()
                .isEqualTo(BENCH + "Invalid value for option '--dataset': " + missing + " does not exist");
    }

    @Test
    void aModelTheServerDoesNotListIsAWarningNamingTheListedOnes() {
        try (SglangSimulator simulator = fastSimulator()) {
            Cli.Run run = bench(
                    "--url",
                    simulator.baseUrl().toString(),
                    "--model",
                    "other/model",
                    "--warmup",
                    "0",
                    "--no-sweep",
                    "--prompts",
                    "hi",
                    "--max-tokens",
                    "4");

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.errLines())
                    .contains("warning: the server lists " + simulator.model()
                            + " but not other/model, the model this run asks for: check --model");
            assertThat(run.out()).doesNotContain("warning");
        }
    }
}
