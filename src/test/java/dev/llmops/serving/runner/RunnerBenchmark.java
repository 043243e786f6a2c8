package dev.llmops.serving.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.simulator.SglangSimulator;
import dev.llmops.serving.simulator.SimulatedRequest;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Not a test: a benchmark of the runner itself, at 256 and 1024 concurrent streams against an in-process simulator,
 * printing how far its figures are from the simulator's ground truth and what it costs. Runs only when asked:
 * {@code mvn -B test -Dtest=RunnerBenchmark -Drunner.benchmark=true}.
 */
@EnabledIfSystemProperty(named = "runner.benchmark", matches = "true")
class RunnerBenchmark {

    private static final Duration TTFT = Duration.ofMillis(100);
    private static final Duration TOKEN_DELAY = Duration.ofMillis(20);
    private static final int OUTPUT_TOKENS = 200;

    @Test
    void runnerAgainstTheSimulatorAt256And1024Streams() throws Exception {
        System.out.printf(Locale.ROOT, "%nRunner benchmark: %d processors, simulator TTFT %d ms, %d ms per token, %d tokens"
                + " per request, 4 × concurrency requests per level%n", Runtime.getRuntime().availableProcessors(),
                TTFT.toMillis(), TOKEN_DELAY.toMillis(), OUTPUT_TOKENS);
        for (int streams : List.of(256, 1024)) {
            measure(streams);
        }
    }

    private static void measure(int streams) throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder().ttft(TTFT).tokenDelay(TOKEN_DELAY).start();
                OpenAiClient client = OpenAiClient.create()) {
            ConcurrentLinkedQueue<RequestResult> results = new ConcurrentLinkedQueue<>();
            BenchmarkListener listener = new BenchmarkListener() {
                @Override
                public void requestFinished(StagePlan stage, RequestResult result) {
                    results.add(result);
                }
            };
            BenchmarkConfig config = BenchmarkConfig.builder(simulator.baseUrl(), simulator.model())
                    .singleRequests(false).warmupRequests(8).concurrency(List.of(streams)).maxTokens(OUTPUT_TOKENS)
                    .ignoreEos(true).timeout(Duration.ofSeconds(120)).build();
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            Map<String, Long> cpuBefore = cpuByThreadKind(threads);
            long processCpuBefore = processCpuNanos();
            StageReport stage = new BenchmarkRunner(config, client, listener).run().stages().get(0);
            Map<String, Long> cpuAfter = cpuByThreadKind(threads);
            double processCpu = (processCpuNanos() - processCpuBefore) / 1e9;

            Map<String, SimulatedRequest> truthById = simulator.requests().stream()
                    .collect(Collectors.toMap(SimulatedRequest::id, Function.identity(), (a, b) -> a));
            double[] ttftError = new double[results.size()];
            double[] truthItl = new double[(int) stage.totalOutputTokens()];
            int itlCount = 0;
            long chunks = 0;
            long firstSend = Long.MAX_VALUE;
            long lastChunk = Long.MIN_VALUE;
            long[] emissionLag = new long[(int) stage.totalOutputTokens()];
            int lagCount = 0;
            int i = 0;
            for (RequestResult result : results) {
                SimulatedRequest truth = truthById.get(result.responseId());
                long[] sent = truth.sentChunkNanos();
                ttftError[i++] = (result.firstTokenNanos() - sent[0]) / 1e6;
                for (int c = 1; c < sent.length; c++) {
                    truthItl[itlCount++] = (sent[c] - sent[c - 1]) / 1e6;
                }
                for (int c = 0; c < sent.length; c++) {
                    emissionLag[lagCount++] = sent[c] - truth.intendedChunkNanos()[c];
                }
                chunks += result.tokenChunkNanos().length;
                firstSend = Math.min(firstSend, result.sendNanos());
                lastChunk = Math.max(lastChunk, sent[sent.length - 1]);
            }
            Arrays.sort(ttftError);
            double[] itl = Arrays.copyOf(truthItl, itlCount);
            Arrays.sort(itl);
            long[] lag = Arrays.copyOf(emissionLag, lagCount);
            Arrays.sort(lag);
            double truthThroughput = stage.totalOutputTokens() / ((lastChunk - firstSend) / 1e9);
            double clientCpu = (cpuAfter.get("client") - cpuBefore.get("client")) / 1e9;
            double simulatorCpu = (cpuAfter.get("simulator") - cpuBefore.get("simulator")) / 1e9;
            double millionTokens = stage.totalOutputTokens() / 1e6;

            System.out.printf(Locale.ROOT, "%n== %d concurrent streams: %d requests, %d failed, %.1f s, %d tokens%n", streams,
                    stage.completed(), stage.failed(), stage.durationSeconds(), stage.totalOutputTokens());
            System.out.printf(Locale.ROOT, "TTFT  runner mean %.2f ms; error vs ground truth p50 %.2f ms, p99 %.2f ms, "
                    + "max %.2f ms%n", stage.latency(StageReport.TTFT).mean(), percentile(ttftError, 50),
                    percentile(ttftError, 99), ttftError[ttftError.length - 1]);
            System.out.printf(Locale.ROOT, "ITL   runner p50 %.2f / p99 %.2f ms; ground truth p50 %.2f / p99 %.2f ms%n",
                    stage.latency(StageReport.ITL).median(), stage.latency(StageReport.ITL).p99(), percentile(itl, 50),
                    percentile(itl, 99));
            System.out.printf(Locale.ROOT, "Throughput runner %.0f tok/s; ground truth %.0f tok/s (%+.2f %%)%n",
                    stage.outputThroughput(), truthThroughput,
                    (stage.outputThroughput() / truthThroughput - 1) * 100);
            System.out.printf(Locale.ROOT, "Chunks received: %.0f /s sustained; achieved concurrency %.0f of %d%n",
                    chunks / stage.durationSeconds(), stage.achievedConcurrency(), streams);
            System.out.printf(Locale.ROOT, "Client CPU: %.2f s (%.2f s per million tokens); simulator %.2f s; whole process"
                    + " %.2f s%n", clientCpu, clientCpu / millionTokens, simulatorCpu, processCpu);
            System.out.printf(Locale.ROOT, "Client lag reported by the runner: p99 %.2f ms, max %.2f ms; warnings: %s%n",
                    stage.clientLagP99Millis(), stage.clientLagMaxMillis(), stage.warnings());
            System.out.printf(Locale.ROOT, "Simulator emission lag (sent − intended): p50 %.2f ms, p99 %.2f ms%n",
                    lag[lag.length / 2] / 1e6, lag[(int) (lag.length * 0.99)] / 1e6);
            assertThat(stage.completed()).isEqualTo(4 * streams);
        }
    }

    /** CPU time of the client's threads and of the simulator's, by thread name. */
    private static Map<String, Long> cpuByThreadKind(ThreadMXBean threads) {
        long client = 0;
        long simulator = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            String name = info.getThreadName();
            if (name.startsWith("openai-client") || name.startsWith("HttpClient-") || name.startsWith("bench-")) {
                client += cpu;
            } else if (name.startsWith("sglang-simulator") || name.startsWith("HTTP-Dispatcher")) {
                simulator += cpu;
            }
        }
        return Map.of("client", client, "simulator", simulator);
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static double percentile(double[] sorted, double percentile) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * percentile / 100) - 1)];
    }
}
