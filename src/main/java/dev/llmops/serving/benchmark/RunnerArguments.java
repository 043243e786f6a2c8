package dev.llmops.serving.benchmark;

import dev.llmops.serving.api.v1alpha1.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.DatasetType;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The {@code bench} command line a BenchmarkRun's spec stands for. */
public final class RunnerArguments {

    /** Environment variable the API key reaches the runner through; the operator never reads the Secret. */
    public static final String API_KEY_ENV = "BENCH_API_KEY";
    /** Where the runner leaves its summary: the container's termination message. */
    public static final String SUMMARY_FILE = "/dev/termination-log";

    private RunnerArguments() {
    }

    public static List<String> of(BenchmarkRunSpec spec, String url, String model) {
        List<String> args = new ArrayList<>(List.of("bench", "--url", url, "--model", model));
        for (String prompt : spec.singleRequest.prompts) {
            add(args, "--prompts", prompt);
        }
        if (spec.singleRequest.prompts.isEmpty()) {
            args.add("--no-single");
        }
        if (spec.dataset.type == DatasetType.Random) {
            add(args, "--dataset", "random");
            add(args, "--input-len", spec.dataset.inputLength);
            add(args, "--output-len", spec.dataset.outputLength);
        } else {
            add(args, "--dataset", "prompts");
        }
        if (Boolean.TRUE.equals(spec.dataset.ignoreEos)) {
            args.add("--ignore-eos");
        }
        if (spec.sweep.concurrency.isEmpty()) {
            args.add("--no-sweep");
        } else {
            add(args, "--concurrency", spec.sweep.concurrency.stream().map(String::valueOf).collect(Collectors.joining(",")));
        }
        add(args, "--requests-per-level", spec.sweep.requestsPerLevel);
        add(args, "--duration-per-level", spec.sweep.durationSecondsPerLevel);
        add(args, "--warmup", spec.warmup.requests);
        add(args, "--warmup-max-tokens", spec.warmup.maxTokens);
        add(args, "--max-tokens", spec.sampling.maxTokens);
        add(args, "--temperature", spec.sampling.temperature);
        add(args, "--top-p", spec.sampling.topP);
        add(args, "--timeout", spec.requestTimeoutSeconds);
        if (spec.target.apiKeySecret != null) {
            add(args, "--api-key-env", API_KEY_ENV);
        }
        add(args, "--summary-file", SUMMARY_FILE);
        return args;
    }

    private static void add(List<String> args, String flag, Object value) {
        if (value != null) {
            args.add(flag);
            args.add(String.valueOf(value));
        }
    }
}
