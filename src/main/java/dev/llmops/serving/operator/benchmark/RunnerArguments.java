package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.contract.PlainNumber;
import dev.llmops.serving.api.contract.RunnerFlags;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.DatasetFile;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.DatasetSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.DatasetType;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SessionsSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SharedPrefixSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SloSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.TraceSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The {@code bench} command line a BenchmarkRun's spec stands for, in the runner's {@link RunnerFlags}. */
public final class RunnerArguments {

    /** Environment variable the API key reaches the runner through; the operator never reads the Secret. */
    public static final String API_KEY_ENV = "BENCH_API_KEY";
    /** Where the runner leaves its summary: the container's termination message. */
    public static final String SUMMARY_FILE = "/dev/termination-log";
    /** Where a ShareGPT or trace dataset's ConfigMap or claim is mounted, read-only, in the runner container. */
    public static final String DATASET_MOUNT = "/datasets";
    /** The port shard 0 of a sharded run listens on for the other shards. */
    public static final int RENDEZVOUS_PORT = 7070;

    public static final String RENDEZVOUS_PORT_NAME = "rendezvous";

    private RunnerArguments() {}

    /**
     * {@code metricsUrls}: the Prometheus endpoints of the target's serving pods, one per pod; for an external target
     * spec.target.metricsUrl is used instead, and without either the runner reads the target's own /metrics.
     */
    public static List<String> of(BenchmarkRunSpec spec, String url, String model, List<String> metricsUrls) {
        return of(spec, url, model, metricsUrls, spec.target.apiKeySecret != null, "bench");
    }

    /**
     * {@code sendsApiKey}: the runner pod has the target's API key in {@link #API_KEY_ENV}; {@code jobName}: the Job
     * and its Service, under which a sharded run's shard 0 is {@code <job>-0}.
     */
    public static List<String> of(
            BenchmarkRunSpec spec,
            String url,
            String model,
            List<String> metricsUrls,
            boolean sendsApiKey,
            String jobName) {
        List<String> args = new ArrayList<>(List.of("bench", RunnerFlags.URL, url, RunnerFlags.MODEL, model));
        if (spec.target.url != null) {
            add(args, RunnerFlags.METRICS_URL, spec.target.metricsUrl);
        } else {
            metricsUrls.forEach(metrics -> add(args, RunnerFlags.METRICS_URL, metrics));
        }
        for (String prompt : spec.singleRequest.prompts) {
            add(args, RunnerFlags.PROMPTS, prompt);
        }
        if (spec.singleRequest.prompts.isEmpty()) {
            args.add(RunnerFlags.NO_SINGLE);
        }
        dataset(args, spec.dataset);
        if (Boolean.TRUE.equals(spec.dataset.ignoreEos)) {
            args.add(RunnerFlags.IGNORE_EOS);
        }
        sweep(args, spec);
        add(args, RunnerFlags.REQUESTS_PER_LEVEL, spec.sweep.requestsPerLevel);
        add(args, RunnerFlags.DURATION_PER_LEVEL, spec.sweep.durationSecondsPerLevel);
        if (spec.slo != null) {
            slo(args, spec.slo);
        }
        if (spec.capacity != null) {
            add(args, RunnerFlags.FIND_CAPACITY, spec.capacity.mode.text());
            add(args, RunnerFlags.MAX_PROBES, spec.capacity.maxProbes);
            add(args, RunnerFlags.MAX_SEARCH_SECONDS, spec.capacity.maxSearchSeconds);
        }
        add(args, RunnerFlags.WARMUP, spec.warmup.requests);
        add(args, RunnerFlags.WARMUP_MAX_TOKENS, spec.warmup.maxTokens);
        add(args, RunnerFlags.MAX_TOKENS, spec.sampling.maxTokens);
        add(args, RunnerFlags.TEMPERATURE, spec.sampling.temperature);
        add(args, RunnerFlags.TOP_P, spec.sampling.topP);
        add(args, RunnerFlags.TIMEOUT, spec.requestTimeoutSeconds);
        if (sendsApiKey) {
            add(args, RunnerFlags.API_KEY_ENV, API_KEY_ENV);
        }
        args.add(RunnerFlags.QUALITY);
        add(args, RunnerFlags.QUALITY_MAX_TOKENS, spec.quality.maxTokens);
        int shards = spec.runner.shardCount();
        if (shards > 1) {
            add(args, RunnerFlags.SHARD, "$(" + BenchmarkJobDependent.COMPLETION_INDEX_ENV + ")/" + shards);
            add(args, RunnerFlags.RENDEZVOUS, jobName + "-0." + jobName + ":" + RENDEZVOUS_PORT);
        } else {
            args.add(RunnerFlags.SAMPLES_LOG);
        }
        add(args, RunnerFlags.SUMMARY_FILE, SUMMARY_FILE);
        return args;
    }

    /** The file a ShareGPT or trace dataset reads, or null for a dataset without one. */
    public static DatasetFile datasetFile(DatasetSpec dataset) {
        return switch (dataset.type) {
            case ShareGPT -> dataset.shareGpt;
            case Trace -> dataset.trace;
            case Random, Prompts, SharedPrefix, Sessions -> null;
        };
    }

    /** The dataset's file as the runner container sees it, under {@link #DATASET_MOUNT}. */
    public static String mountedFile(DatasetFile file) {
        String relative = file.configMap != null ? file.configMap.key : file.persistentVolumeClaim.path;
        return DATASET_MOUNT + "/" + relative;
    }

    /** The speeds a trace is replayed at: the spec's, else once at its own pace. */
    public static List<Double> traceSpeeds(TraceSpec trace) {
        return trace.speeds == null || trace.speeds.isEmpty() ? List.of(1.0) : trace.speeds;
    }

    private static void dataset(List<String> args, DatasetSpec dataset) {
        switch (dataset.type) {
            case Random -> {
                add(args, RunnerFlags.DATASET, "random");
                add(args, RunnerFlags.INPUT_LENGTH, dataset.inputLength);
                add(args, RunnerFlags.OUTPUT_LENGTH, dataset.outputLength);
            }
            case ShareGPT -> {
                add(args, RunnerFlags.DATASET, "sharegpt:" + mountedFile(dataset.shareGpt));
                add(args, RunnerFlags.OUTPUT_LENGTH, dataset.shareGpt.maxOutputTokens);
            }
            case Trace -> {
                TraceSpec trace = dataset.trace;
                add(args, RunnerFlags.DATASET, "trace:" + mountedFile(trace));
                add(
                        args,
                        RunnerFlags.TRACE_SPEED,
                        join(traceSpeeds(trace).stream().map(PlainNumber::text).toList()));
                if (trace.fromSeconds != null || trace.toSeconds != null) {
                    String from = PlainNumber.text(trace.fromSeconds == null ? 0 : trace.fromSeconds);
                    add(
                            args,
                            RunnerFlags.TRACE_WINDOW,
                            trace.toSeconds == null
                                    ? from
                                    : from + RunnerFlags.LIST_SEPARATOR + PlainNumber.text(trace.toSeconds));
                }
                add(args, RunnerFlags.OUTPUT_LENGTH, trace.maxOutputTokens);
            }
            case SharedPrefix -> {
                SharedPrefixSpec shape = dataset.sharedPrefix;
                add(
                        args,
                        RunnerFlags.DATASET,
                        "shared-prefix:" + shape.groups + RunnerFlags.LIST_SEPARATOR + shape.prefixTokens
                                + RunnerFlags.LIST_SEPARATOR + shape.questionTokens);
                add(args, RunnerFlags.OUTPUT_LENGTH, shape.outputLength);
            }
            case Sessions -> {
                SessionsSpec sessions = dataset.sessions;
                add(
                        args,
                        RunnerFlags.DATASET,
                        "sessions:" + sessions.turns + RunnerFlags.LIST_SEPARATOR + sessions.firstTurnTokens
                                + RunnerFlags.LIST_SEPARATOR + sessions.turnTokens);
                add(args, RunnerFlags.OUTPUT_LENGTH, sessions.outputLength);
                add(
                        args,
                        RunnerFlags.THINK_TIME,
                        sessions.thinkTimeSeconds == null ? null : PlainNumber.text(sessions.thinkTimeSeconds));
                add(args, RunnerFlags.SESSION_HEADER, sessions.sessionHeader);
            }
            case Prompts -> add(args, RunnerFlags.DATASET, "prompts");
        }
    }

    /** Closed-loop levels, open-loop rates, or --no-sweep when the spec asks for neither. */
    private static void sweep(List<String> args, BenchmarkRunSpec spec) {
        List<Integer> levels = SweepLevels.concurrency(spec);
        List<Double> rates = SweepLevels.rates(spec);
        if (levels.isEmpty() && rates.isEmpty() && spec.dataset.type != DatasetType.Trace) {
            args.add(RunnerFlags.NO_SWEEP);
        }
        if (!levels.isEmpty()) {
            add(
                    args,
                    RunnerFlags.CONCURRENCY,
                    join(levels.stream().map(String::valueOf).toList()));
        }
        if (!rates.isEmpty()) {
            add(
                    args,
                    RunnerFlags.RATE,
                    join(rates.stream().map(PlainNumber::text).toList()));
        }
        add(args, RunnerFlags.ARRIVAL, spec.sweep.arrival == null ? null : lowerCase(spec.sweep.arrival));
        add(args, RunnerFlags.MAX_CONCURRENCY, spec.sweep.maxConcurrency);
    }

    private static void slo(List<String> args, SloSpec slo) {
        add(args, RunnerFlags.SLO_TTFT, slo.ttftP99Millis);
        add(args, RunnerFlags.SLO_TPOT, slo.tpotP99Millis);
        add(args, RunnerFlags.SLO_ITL, slo.itlP99Millis);
        add(args, RunnerFlags.SLO_E2E, slo.e2eP99Millis);
        add(args, RunnerFlags.SLO_ATTAINMENT, slo.attainment == null ? null : PlainNumber.text(slo.attainment));
    }

    private static String join(List<String> values) {
        return values.stream().collect(Collectors.joining(RunnerFlags.LIST_SEPARATOR));
    }

    private static String lowerCase(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    private static void add(List<String> args, String flag, Object value) {
        if (value != null) {
            args.add(flag);
            args.add(String.valueOf(value));
        }
    }
}
