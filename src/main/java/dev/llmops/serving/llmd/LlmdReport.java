package dev.llmops.serving.llmd;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.LatencyStats;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.Provenance;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.DatasetSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.DatasetType;
import dev.llmops.serving.common.SecretArgs;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A BenchmarkRun as llm-d's benchmark report version 0.2, the format llm-d-benchmark compares harnesses in: one report
 * per measured stage, since a report describes one load point and names its stage. Only what the run recorded is
 * written; an optional field the run cannot fill is left out.
 */
public final class LlmdReport {

    /** The schema version every report declares. */
    public static final String VERSION = "0.2";

    /** The workload generator as the report names it: this project's benchmark runner. */
    static final String TOOL = "llm-serving-operator";

    /** One stage's report, with the stage name it was made from. */
    public record Stage(String name, Map<String, Object> report) {}

    private static final UUID NAMESPACE_URL = UUID.fromString("6ba7b811-9dad-11d1-80b4-00c04fd430c8");
    private static final int CFG_ID_HEX_CHARS = 32;
    private static final ObjectMapper YAML =
            new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER));

    private LlmdReport() {}

    /** One report per stage of the run, in the order the stages ran; none when no stage has finished. */
    public static List<Stage> render(BenchmarkRun run) {
        List<Stage> reports = new ArrayList<>();
        List<StageResult> stages = run.getStatus().stages;
        for (int index = 0; index < stages.size(); index++) {
            StageResult stage = stages.get(index);
            reports.add(new Stage(stage.name, report(run, stage, index)));
        }
        return reports;
    }

    /** A report as YAML, the form llm-d-benchmark writes and reads. */
    public static String yaml(Map<String, Object> report) {
        try {
            return YAML.writeValueAsString(report);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a report of maps, lists, strings and numbers always serialises", e);
        }
    }

    private static Map<String, Object> report(BenchmarkRun run, StageResult stage, int index) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("version", VERSION);
        report.put("run", run(run, stage));
        Map<String, Object> scenario = new LinkedHashMap<>();
        Optional<Map<String, Object>> server = stack(run);
        server.ifPresent(component -> scenario.put("stack", List.of(component)));
        load(run, stage, index).ifPresent(load -> scenario.put("load", load));
        if (!scenario.isEmpty()) {
            report.put("scenario", scenario);
        }
        Map<String, Object> results = new LinkedHashMap<>();
        results.put("request_performance", Map.of("aggregate", aggregate(stage)));
        server.flatMap(component -> observability(run.getSpec().target.modelServer, stage))
                .ifPresent(observability -> results.put("observability", observability));
        report.put("results", results);
        return report;
    }

    /**
     * The server's prefix-cache hit rate over the stage as its component's observability, in percent: from the
     * server's counters when it exported them, else the cached share of the prompt tokens its usage reported.
     */
    private static Optional<Map<String, Object>> observability(String componentLabel, StageResult stage) {
        Double hitRate = stage.cacheHitRate != null ? stage.cacheHitRate : stage.cachedPromptShare;
        if (hitRate == null) {
            return Optional.empty();
        }
        double percent = BigDecimal.valueOf(hitRate).movePointRight(2).doubleValue();
        Map<String, Object> component = new LinkedHashMap<>();
        component.put("component_label", componentLabel);
        component.put("aggregate", Map.of("cache_hit_rate", rate(percent, "percent")));
        return Optional.of(Map.of("components", List.of(component)));
    }

    /**
     * The report's identity: its own uid and an experiment id shared by the stages of one run, both name-based so a
     * report converted twice keeps them (the eid as llm-d-benchmark derives it); the label llm-d's tools show,
     * "model [experiment]"; the run's start and end.
     */
    private static Map<String, Object> run(BenchmarkRun run, StageResult stage) {
        String experiment = experiment(run);
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("uid", uuid5(experiment + "/" + stage.name).toString());
        section.put("eid", uuid5(experiment).toString());
        Optional<Provenance> provenance = Optional.ofNullable(run.getStatus().provenance);
        String label = run.getMetadata().getNamespace() == null
                ? run.getMetadata().getName()
                : run.getMetadata().getNamespace() + "/" + run.getMetadata().getName();
        section.put(
                "description",
                provenance
                        .map(p -> p.model)
                        .map(model -> model + " [" + label + "]")
                        .orElse(label));
        time(run).ifPresent(time -> section.put("time", time));
        return section;
    }

    /** The Kubernetes uid of the run when it has one, else its namespace and name. */
    private static String experiment(BenchmarkRun run) {
        String uid = run.getMetadata().getUid();
        if (uid != null && !uid.isBlank()) {
            return uid;
        }
        return run.getMetadata().getNamespace() + "/" + run.getMetadata().getName();
    }

    private static Optional<Map<String, Object>> time(BenchmarkRun run) {
        Optional<OffsetDateTime> start = timestamp(run.getStatus().startTime);
        Optional<OffsetDateTime> end = timestamp(run.getStatus().completionTime);
        Map<String, Object> time = new LinkedHashMap<>();
        start.ifPresent(s -> time.put("start", run.getStatus().startTime));
        end.ifPresent(e -> time.put("end", run.getStatus().completionTime));
        if (start.isPresent() && end.isPresent() && !end.get().isBefore(start.get())) {
            time.put("duration", Duration.between(start.get(), end.get()).toString());
        }
        return time.isEmpty() ? Optional.empty() : Optional.of(time);
    }

    private static Optional<OffsetDateTime> timestamp(String text) {
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /**
     * The SGLang server of a ModelServer target as a generic component: the run records its image, model, GPUs and
     * command line, but not the replica count the schema's inference-engine kind requires. A URL target's engine is
     * unknown, so it has no component.
     */
    private static Optional<Map<String, Object>> stack(BenchmarkRun run) {
        Provenance p = run.getStatus().provenance;
        BenchmarkRunSpec spec = run.getSpec();
        if (p == null || p.image == null || spec == null || spec.target == null || spec.target.modelServer == null) {
            return Optional.empty();
        }
        List<String> args = SecretArgs.redact(p.serverArgs);
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("label", spec.target.modelServer);
        metadata.put("cfg_id", sha256(p.image + "\n" + String.join("\n", args)).substring(0, CFG_ID_HEX_CHARS));
        Map<String, Object> standardized = new LinkedHashMap<>();
        standardized.put("kind", "generic");
        standardized.put("tool", "sglang");
        standardized.put("tool_version", p.image);
        if (p.model != null) {
            standardized.put("model", Map.of("name", p.model));
        }
        Map<String, Object> accelerator = new LinkedHashMap<>();
        putIfKnown(accelerator, "model", p.gpuProduct);
        putIfKnown(accelerator, "count_per_replica", p.gpuCount);
        putIfKnown(accelerator, "driver_version", p.driverVersion);
        if (!accelerator.isEmpty()) {
            standardized.put("accelerator", accelerator);
        }
        Map<String, Object> component = new LinkedHashMap<>();
        component.put("metadata", metadata);
        component.put("standardized", standardized);
        Map<String, Object> flags = flags(args);
        component.put("native", flags.isEmpty() ? Map.of() : Map.of("args", flags));
        return Optional.of(component);
    }

    /** The server's flags as the schema's native args: each --flag with its value, or null for a bare switch. */
    static Map<String, Object> flags(List<String> args) {
        Map<String, Object> flags = new LinkedHashMap<>();
        String pending = null;
        for (String arg : args) {
            if (arg.startsWith("--")) {
                if (pending != null) {
                    flags.put(pending, null);
                }
                int equals = arg.indexOf('=');
                if (equals > 0) {
                    flags.put(arg.substring(0, equals), arg.substring(equals + 1));
                    pending = null;
                } else {
                    pending = arg;
                }
            } else if (pending != null) {
                flags.put(pending, arg);
                pending = null;
            }
        }
        if (pending != null) {
            flags.put(pending, null);
        }
        return flags;
    }

    /**
     * The stage's load: its concurrency or request rate, how its prompts were made, how long they were and how many
     * turns a conversation of multi-turn sessions has. A stage whose input length is neither fixed by the spec nor
     * measured has no load section, since the schema requires it.
     */
    private static Optional<Map<String, Object>> load(BenchmarkRun run, StageResult stage, int index) {
        boolean single = "single".equals(stage.name);
        BenchmarkRunSpec spec = run.getSpec();
        DatasetSpec dataset = spec == null || single ? null : spec.dataset;
        Optional<Map<String, Object>> inputLength = inputLength(dataset, stage);
        if (inputLength.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Object> standardized = new LinkedHashMap<>();
        standardized.put("tool", TOOL);
        standardized.put("tool_version", runnerVersion(run));
        standardized.put("source", source(dataset, single));
        standardized.put("stage", index);
        standardized.put("input_seq_len", inputLength.get());
        enforcedOutputLength(spec, dataset).ifPresent(length -> standardized.put("output_seq_len", fixed(length)));
        if (dataset != null
                && dataset.type == DatasetType.Sessions
                && dataset.sessions != null
                && dataset.sessions.turns != null) {
            Map<String, Object> multiTurn = new LinkedHashMap<>();
            multiTurn.put("enabled", true);
            multiTurn.put("max_turns", fixed(dataset.sessions.turns));
            standardized.put("multi_turn", multiTurn);
        }
        if (stage.requestRate != null && stage.requestRate > 0) {
            standardized.put("rate_qps", stage.requestRate);
        } else if (stage.concurrency != null && stage.concurrency >= 1) {
            standardized.put("concurrency", stage.concurrency);
        }
        Map<String, Object> native_ = new LinkedHashMap<>();
        Map<String, Object> args = nativeArgs(spec, dataset, stage);
        if (!args.isEmpty()) {
            native_.put("args", args);
        }
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("metadata", Map.of());
        load.put("standardized", standardized);
        load.put("native", native_);
        return Optional.of(load);
    }

    /** The runner's version as recorded, else the runner image the spec named; empty when neither was recorded. */
    private static String runnerVersion(BenchmarkRun run) {
        Provenance p = run.getStatus().provenance;
        if (p != null && p.runnerVersion != null) {
            return p.runnerVersion;
        }
        BenchmarkRunSpec spec = run.getSpec();
        if (spec != null && spec.runner != null && spec.runner.image != null) {
            return spec.runner.image;
        }
        return "";
    }

    private static String source(DatasetSpec dataset, boolean single) {
        if (single) {
            return "sampled";
        }
        DatasetType type = dataset == null ? null : dataset.type;
        if (type == null) {
            return "unknown";
        }
        return switch (type) {
            case Random, Sessions -> "random";
            case Prompts, ShareGPT, Trace -> "sampled";
            case SharedPrefix -> "unknown";
        };
    }

    /**
     * A Random dataset's fixed input length; otherwise the mean prompt tokens the stage measured, from its input token
     * rate over its window and its completed requests.
     */
    private static Optional<Map<String, Object>> inputLength(DatasetSpec dataset, StageResult stage) {
        if (dataset != null && dataset.type == DatasetType.Random && dataset.inputLength != null) {
            return Optional.of(fixed(dataset.inputLength));
        }
        if (stage.totalTokensPerSecond == null
                || stage.outputTokensPerSecond == null
                || stage.durationSeconds == null
                || stage.completed == null
                || stage.completed == 0) {
            return Optional.empty();
        }
        double inputTokens = (stage.totalTokensPerSecond - stage.outputTokensPerSecond) * stage.durationSeconds;
        if (inputTokens < 0) {
            return Optional.empty();
        }
        Map<String, Object> length = new LinkedHashMap<>();
        length.put("distribution", "other");
        length.put("value", tenths(inputTokens / stage.completed));
        return Optional.of(length);
    }

    /** The output length every request was held to, when the spec ignored end-of-sequence. */
    private static Optional<Integer> enforcedOutputLength(BenchmarkRunSpec spec, DatasetSpec dataset) {
        if (dataset == null || !Boolean.TRUE.equals(dataset.ignoreEos)) {
            return Optional.empty();
        }
        if (dataset.type == DatasetType.Random && dataset.outputLength != null) {
            return Optional.of(dataset.outputLength);
        }
        if (dataset.type == DatasetType.SharedPrefix
                && dataset.sharedPrefix != null
                && dataset.sharedPrefix.outputLength != null) {
            return Optional.of(dataset.sharedPrefix.outputLength);
        }
        if (dataset.type == DatasetType.Sessions && dataset.sessions != null && dataset.sessions.outputLength != null) {
            return Optional.of(dataset.sessions.outputLength);
        }
        if (dataset.type == DatasetType.ShareGPT && dataset.shareGpt != null) {
            return Optional.ofNullable(dataset.shareGpt.maxOutputTokens);
        }
        return Optional.ofNullable(spec.sampling == null ? null : spec.sampling.maxTokens);
    }

    private static Map<String, Object> fixed(int length) {
        Map<String, Object> fixed = new LinkedHashMap<>();
        fixed.put("distribution", "fixed");
        fixed.put("value", length);
        return fixed;
    }

    /** The sampling and workload settings of the spec, named as the runner's flags name them. */
    private static Map<String, Object> nativeArgs(BenchmarkRunSpec spec, DatasetSpec dataset, StageResult stage) {
        Map<String, Object> args = new LinkedHashMap<>();
        if (spec == null) {
            return args;
        }
        if (spec.sampling != null) {
            putIfKnown(args, "temperature", spec.sampling.temperature);
            putIfKnown(args, "top_p", spec.sampling.topP);
            putIfKnown(args, "max_tokens", spec.sampling.maxTokens);
        }
        if (dataset != null) {
            putIfKnown(args, "dataset", dataset.type == null ? null : dataset.type.name());
            putIfKnown(args, "ignore_eos", dataset.ignoreEos);
        }
        if (stage.requestRate != null && spec.sweep != null) {
            putIfKnown(args, "arrival", spec.sweep.arrival == null ? null : spec.sweep.arrival.name());
            putIfKnown(args, "max_concurrency", spec.sweep.maxConcurrency);
        }
        return args;
    }

    /** Request counts, latencies and throughput of the stage in the units the schema's checks accept. */
    private static Map<String, Object> aggregate(StageResult stage) {
        Map<String, Object> aggregate = new LinkedHashMap<>();
        if (stage.completed != null) {
            Map<String, Object> requests = new LinkedHashMap<>();
            int failed = stage.failed == null ? 0 : stage.failed;
            requests.put("total", stage.completed + failed);
            putIfKnown(requests, "failures", stage.failed);
            aggregate.put("requests", requests);
        }
        Map<String, Object> latency = new LinkedHashMap<>();
        statistics(stage.ttftMillis, "ms").ifPresent(s -> latency.put("time_to_first_token", s));
        statistics(stage.tpotMillis, "ms/token").ifPresent(s -> latency.put("time_per_output_token", s));
        statistics(stage.itlMillis, "ms/token").ifPresent(s -> latency.put("inter_token_latency", s));
        statistics(stage.e2eMillis, "ms").ifPresent(s -> latency.put("request_latency", s));
        if (!latency.isEmpty()) {
            aggregate.put("latency", latency);
        }
        Map<String, Object> throughput = new LinkedHashMap<>();
        if (stage.totalTokensPerSecond != null && stage.outputTokensPerSecond != null) {
            double input = stage.totalTokensPerSecond - stage.outputTokensPerSecond;
            throughput.put("input_token_rate", rate(tenths(input), "tokens/s"));
        }
        if (stage.outputTokensPerSecond != null) {
            throughput.put("output_token_rate", rate(stage.outputTokensPerSecond, "tokens/s"));
        }
        if (stage.totalTokensPerSecond != null) {
            throughput.put("total_token_rate", rate(stage.totalTokensPerSecond, "tokens/s"));
        }
        if (stage.requestsPerSecond != null) {
            throughput.put("request_rate", rate(stage.requestsPerSecond, "queries/s"));
        }
        if (!throughput.isEmpty()) {
            aggregate.put("throughput", throughput);
        }
        return aggregate;
    }

    /** The schema requires a mean; a latency without one is left out. */
    private static Optional<Map<String, Object>> statistics(LatencyStats stats, String units) {
        if (stats == null || stats.mean == null) {
            return Optional.empty();
        }
        Map<String, Object> statistics = new LinkedHashMap<>();
        statistics.put("units", units);
        statistics.put("mean", stats.mean);
        putIfKnown(statistics, "p50", stats.p50);
        putIfKnown(statistics, "p90", stats.p90);
        putIfKnown(statistics, "p99", stats.p99);
        putIfKnown(statistics, "max", stats.max);
        return Optional.of(statistics);
    }

    /** A rate over the stage's window: one figure, so it is the mean. */
    private static Map<String, Object> rate(double value, String units) {
        Map<String, Object> rate = new LinkedHashMap<>();
        rate.put("units", units);
        rate.put("mean", value);
        return rate;
    }

    /** A figure derived from the status's rates, to the tenth those rates are given in. */
    private static double tenths(double value) {
        return Math.round(value * 10) / 10.0;
    }

    private static void putIfKnown(Map<String, Object> map, String key, Object value) {
        if (value != null) {
            map.put(key, value);
        }
    }

    /** A name-based UUID of version 5 in the URL namespace, as Python's uuid.uuid5(uuid.NAMESPACE_URL, name). */
    static UUID uuid5(String name) {
        MessageDigest sha1 = digest("SHA-1");
        sha1.update(bytes(NAMESPACE_URL));
        byte[] hash = sha1.digest(name.getBytes(StandardCharsets.UTF_8));
        hash[6] = (byte) ((hash[6] & 0x0f) | 0x50);
        hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
        long high = 0;
        long low = 0;
        for (int i = 0; i < 8; i++) {
            high = (high << 8) | (hash[i] & 0xff);
            low = (low << 8) | (hash[i + 8] & 0xff);
        }
        return new UUID(high, low);
    }

    private static byte[] bytes(UUID uuid) {
        byte[] bytes = new byte[16];
        for (int i = 0; i < 8; i++) {
            bytes[i] = (byte) (uuid.getMostSignificantBits() >>> (56 - 8 * i));
            bytes[i + 8] = (byte) (uuid.getLeastSignificantBits() >>> (56 - 8 * i));
        }
        return bytes;
    }

    private static String sha256(String text) {
        return HexFormat.of().formatHex(digest("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is part of every Java runtime", e);
        }
    }
}
