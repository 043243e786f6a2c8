package dev.llmops.serving.benchmark;

import dev.llmops.serving.api.v1alpha1.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.DatasetType;
import dev.llmops.serving.runner.RunnerFlags;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The {@code bench} command line a BenchmarkRun's spec stands for, in the runner's {@link RunnerFlags}. */
public final class RunnerArguments {

    /** Environment variable the API key reaches the runner through; the operator never reads the Secret. */
    public static final String API_KEY_ENV = "BENCH_API_KEY";
    /** Where the runner leaves its summary: the container's termination message. */
    public static final String SUMMARY_FILE = "/dev/termination-log";

    private RunnerArguments() {}

    public static List<String> of(BenchmarkRunSpec spec, String url, String model) {
        List<String> args = new ArrayList<>(List.of("bench", RunnerFlags.URL, url, RunnerFlags.MODEL, model));
        for (String prompt : spec.singleRequest.prompts) {
            add(args, RunnerFlags.PROMPTS, prompt);
        }
        if (spec.singleRequest.prompts.isEmpty()) {
            args.add(RunnerFlags.NO_SINGLE);
        }
        if (spec.dataset.type == DatasetType.Random) {
            add(args, RunnerFlags.DATASET, "random");
            add(args, RunnerFlags.INPUT_LENGTH, spec.dataset.inputLength);
            add(args, RunnerFlags.OUTPUT_LENGTH, spec.dataset.outputLength);
        } else {
            add(args, RunnerFlags.DATASET, "prompts");
        }
        if (Boolean.TRUE.equals(spec.dataset.ignoreEos)) {
            args.add(RunnerFlags.IGNORE_EOS);
        }
        if (spec.sweep.concurrency.isEmpty()) {
            args.add(RunnerFlags.NO_SWEEP);
        } else {
            add(
                    args,
                    RunnerFlags.CONCURRENCY,
                    spec.sweep.concurrency.stream()
                            .map(String::valueOf)
                            .collect(Collectors.joining(RunnerFlags.LIST_SEPARATOR)));
        }
        add(args, RunnerFlags.REQUESTS_PER_LEVEL, spec.sweep.requestsPerLevel);
        add(args, RunnerFlags.DURATION_PER_LEVEL, spec.sweep.durationSecondsPerLevel);
        add(args, RunnerFlags.WARMUP, spec.warmup.requests);
        add(args, RunnerFlags.WARMUP_MAX_TOKENS, spec.warmup.maxTokens);
        add(args, RunnerFlags.MAX_TOKENS, spec.sampling.maxTokens);
        add(args, RunnerFlags.TEMPERATURE, spec.sampling.temperature);
        add(args, RunnerFlags.TOP_P, spec.sampling.topP);
        add(args, RunnerFlags.TIMEOUT, spec.requestTimeoutSeconds);
        if (spec.target.apiKeySecret != null) {
            add(args, RunnerFlags.API_KEY_ENV, API_KEY_ENV);
        }
        add(args, RunnerFlags.SUMMARY_FILE, SUMMARY_FILE);
        return args;
    }

    private static void add(List<String> args, String flag, Object value) {
        if (value != null) {
            args.add(flag);
            args.add(String.valueOf(value));
        }
    }
}
