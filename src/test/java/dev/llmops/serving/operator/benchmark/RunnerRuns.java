package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.contract.RunnerFlags;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.cli.Cli;
import dev.llmops.serving.simulator.SglangSimulator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Real runner output for the controller tests: the {@code bench} command run in-process, with the arguments the
 * operator put in a Job, against the SGLang simulator on loopback.
 */
final class RunnerRuns {

    /**
     * What the benchmark pod would leave: exit code, log (stdout, the table; stderr, the PROGRESS lines) and
     * termination message.
     */
    record Output(int exitCode, String stdout, String stderr, String summary) {}

    private static String standardSummary;

    private RunnerRuns() {}

    /** A fast simulator serving kimi-k2: 5 ms to the first token, 1 ms per further token. */
    static SglangSimulator simulator() {
        return SglangSimulator.builder()
                .model("kimi-k2")
                .ttft(Duration.ofMillis(5))
                .tokenDelay(Duration.ofMillis(1))
                .start();
    }

    /** A plan small enough to run in a second: one warm-up request, the three default prompts, levels 2 and 4. */
    static void smallPlan(BenchmarkRunSpec spec) {
        spec.warmup.requests = 1;
        spec.warmup.maxTokens = 8;
        spec.sampling.maxTokens = 32;
        spec.sweep.concurrency = List.of(2, 4);
        spec.sweep.requestsPerLevel = 8;
        spec.requestTimeoutSeconds = 30;
    }

    /**
     * Runs a Job's container arguments. The summary goes to a temporary file instead of /dev/termination-log, and the
     * API key option is dropped (the simulator needs none and a test cannot set the pod's environment).
     */
    static Output bench(List<String> jobArgs) {
        try {
            Path summaryFile = Files.createTempFile("bench-summary", ".json");
            List<String> args = new ArrayList<>();
            for (int i = 1; i < jobArgs.size(); i++) {
                String arg = jobArgs.get(i);
                if (arg.equals(RunnerFlags.API_KEY_ENV)) {
                    i++;
                } else if (arg.equals(RunnerFlags.SUMMARY_FILE)) {
                    args.add(arg);
                    args.add(summaryFile.toString());
                    i++;
                } else {
                    args.add(arg);
                }
            }
            args.add(0, "bench");
            Cli.Run run = Cli.run(args.toArray(String[]::new));
            String summary = Files.readString(summaryFile, StandardCharsets.UTF_8);
            Files.delete(summaryFile);
            return new Output(run.exitCode(), run.out(), run.err(), summary);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The summary of the small plan against a fresh simulator, run once per test JVM. */
    static synchronized String standardSummary() {
        if (standardSummary == null) {
            try (SglangSimulator simulator = simulator()) {
                BenchmarkRunSpec spec = new BenchmarkRunSpec();
                spec.target = new BenchmarkTarget();
                smallPlan(spec);
                Output output =
                        bench(RunnerArguments.of(spec, simulator.baseUrl().toString(), simulator.model(), List.of()));
                if (output.exitCode() != 0) {
                    throw new IllegalStateException("bench exited " + output.exitCode() + ": " + output.stderr());
                }
                standardSummary = output.summary();
            }
        }
        return standardSummary;
    }
}
