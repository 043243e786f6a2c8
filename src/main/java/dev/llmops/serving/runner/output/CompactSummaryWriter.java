package dev.llmops.serving.runner.output;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmops.serving.api.contract.CompactSummary;
import dev.llmops.serving.runner.statistics.LatencySummary;
import dev.llmops.serving.runner.workload.TraceReplay;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Turns a report into a {@link CompactSummary} of at most {@value CompactSummary#MAX_BYTES} bytes of UTF-8 JSON. When
 * the whole summary does not fit, it drops detail step by step, least useful first — acceptance lengths and cache
 * shares, prompt texts, maxima, long warnings, the single-request list, then whole latency arrays (schedule lag with
 * ITL, then E2E, TPOT, TTFT) — and marks the result {@code trunc}. Stage names, levels, counts, attainment and
 * goodput stay, and so does the capacity; only if even they do not fit are the last stages dropped.
 */
public final class CompactSummaryWriter {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_MODEL_CHARS = 253;
    private static final int MAX_PROMPT_CHARS = 60;
    private static final int MAX_WARNING_CHARS = 300;
    private static final int MAX_REASON_CHARS = 200;

    private CompactSummaryWriter() {}

    /** The summary of a finished run. */
    public static String write(BenchmarkReport report) {
        List<CompactSummary.Stage> stages =
                report.stages().stream().map(CompactSummaryWriter::stage).toList();
        List<CompactSummary.SinglePrompt> singles = report.singleRequests().stream()
                .map(single -> new CompactSummary.SinglePrompt(
                        cut(single.prompt(), MAX_PROMPT_CHARS),
                        single.outputTokens(),
                        round(single.tokensPerSecond()),
                        single.ttftMillis() == null ? 0 : round(single.ttftMillis()),
                        round(single.e2eMillis())))
                .toList();
        CompactSummary.Headline headline = new CompactSummary.Headline(
                round(report.singleStreamTokensPerSecond()),
                round(report.peakOutputThroughput()),
                report.peakConcurrency(),
                report.peakRule(),
                report.kneeConcurrency(),
                report.failed(),
                report.shards(),
                report.shards() == null ? null : round(worstClientLag(report)));
        return fit(new CompactSummary(
                CompactSummary.FORMAT_VERSION,
                cut(report.model(), MAX_MODEL_CHARS),
                stages,
                singles.isEmpty() ? null : singles,
                headline,
                report.failures().isEmpty() ? null : report.failures(),
                warnings(report.warnings()),
                null,
                capacity(report.capacity()),
                workload(report)));
    }

    /** The highest p99 client lag of any shard in any measured stage, in milliseconds. */
    private static double worstClientLag(BenchmarkReport report) {
        return report.stages().stream()
                .mapToDouble(StageReport::clientLagP99Millis)
                .max()
                .orElse(0);
    }

    private static CompactSummary.Workload workload(BenchmarkReport report) {
        TraceReplay.Shape trace = report.trace();
        return new CompactSummary.Workload(
                report.workload(),
                trace == null
                        ? null
                        : new CompactSummary.TraceShape(
                                trace.requests(),
                                round(trace.spanSeconds()),
                                round(trace.rate()),
                                lengths(trace.inputTokens()),
                                lengths(trace.outputTokens()),
                                round(trace.repeatedBlockShare())));
    }

    private static int[] lengths(TraceReplay.Lengths lengths) {
        return new int[] {lengths.p50(), lengths.p90(), lengths.max()};
    }

    private static CompactSummary.Capacity capacity(CapacityReport capacity) {
        if (capacity == null) {
            return null;
        }
        return new CompactSummary.Capacity(
                capacity.mode(),
                capacity.maxConcurrency(),
                round(capacity.maxRequestRate()),
                capacity.outcome(),
                cut(capacity.reason(), MAX_REASON_CHARS),
                round(capacity.outputThroughput()),
                round(capacity.requestThroughput()),
                round(capacity.sloAttainment()),
                round(capacity.goodputRequestRate()),
                round(capacity.goodputOutputThroughput()),
                round(capacity.p99TtftMillis()),
                round(capacity.p99TpotMillis()),
                round(capacity.p99ItlMillis()),
                round(capacity.p99E2eMillis()),
                capacity.probes().size());
    }

    /** The summary of a run that measured nothing, with the reason as its warning. */
    public static String writeFailure(String model, String reason) {
        return fit(new CompactSummary(
                CompactSummary.FORMAT_VERSION,
                cut(model, MAX_MODEL_CHARS),
                List.of(),
                null,
                null,
                null,
                warnings(List.of(reason)),
                null,
                null,
                null));
    }

    static String fit(CompactSummary summary) {
        ObjectNode root = JSON.valueToTree(summary);
        dropZeroFractions(root);
        if (fits(root)) {
            return root.toString();
        }
        root.put("trunc", true);
        for (Consumer<ObjectNode> step : reductions()) {
            step.accept(root);
            if (fits(root)) {
                return root.toString();
            }
        }
        ArrayNode stages = (ArrayNode) root.get("stages");
        while (stages != null && !stages.isEmpty() && !fits(root)) {
            stages.remove(stages.size() - 1);
        }
        if (fits(root)) {
            return root.toString();
        }
        ObjectNode minimal = JSON.createObjectNode();
        minimal.put("v", CompactSummary.FORMAT_VERSION);
        minimal.put("trunc", true);
        if (root.get("cap") != null) {
            minimal.set("cap", root.get("cap"));
        }
        return minimal.toString();
    }

    private static List<Consumer<ObjectNode>> reductions() {
        return List.of(
                root -> eachIn(root, "stages", stage -> stage.remove(List.of("acc", "chr", "cps", "trn"))),
                root -> root.remove("wl"),
                root -> eachIn(root, "single", prompt -> prompt.remove("p")),
                root -> eachIn(
                        root,
                        "stages",
                        stage -> stage.properties().forEach(field -> {
                            if (field.getValue() instanceof ArrayNode array && array.size() == 5) {
                                array.remove(4);
                            }
                        })),
                root -> shortenWarnings(root, 5, 100),
                root -> root.remove("single"),
                root -> eachIn(root, "stages", stage -> stage.remove(List.of("itl", "lag"))),
                root -> eachIn(root, "stages", stage -> stage.remove("e2e")),
                root -> eachIn(root, "stages", stage -> stage.remove(List.of("dur", "ttps", "rps", "ac", "r", "ar"))),
                root -> eachIn(root, "stages", stage -> stage.remove("tpot")),
                root -> eachIn(root, "stages", stage -> stage.remove("ttft")),
                root -> eachIn(root, "stages", stage -> stage.remove("otps")),
                root -> shortenWarnings(root, 1, 60),
                root -> root.put("model", cut(root.path("model").asText(), 64)),
                CompactSummaryWriter::fewerFailureClasses,
                root -> root.remove("warn"));
    }

    /** Writes 12347.0 as 12347: the same number to any JSON reader, two bytes shorter. */
    private static void dropZeroFractions(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.properties().forEach(field -> {
                if (isWholeDouble(field.getValue())) {
                    field.setValue(
                            JSON.getNodeFactory().numberNode(field.getValue().longValue()));
                } else {
                    dropZeroFractions(field.getValue());
                }
            });
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                if (isWholeDouble(array.get(i))) {
                    array.set(i, JSON.getNodeFactory().numberNode(array.get(i).longValue()));
                } else {
                    dropZeroFractions(array.get(i));
                }
            }
        }
    }

    private static boolean isWholeDouble(JsonNode node) {
        return node.isDouble()
                && node.doubleValue() == Math.rint(node.doubleValue())
                && Math.abs(node.doubleValue()) < 1e15;
    }

    private static boolean fits(JsonNode root) {
        return root.toString().getBytes(StandardCharsets.UTF_8).length <= CompactSummary.MAX_BYTES;
    }

    private static void eachIn(ObjectNode root, String field, Consumer<ObjectNode> action) {
        if (root.get(field) instanceof ArrayNode array) {
            array.forEach(element -> action.accept((ObjectNode) element));
        }
    }

    /** Keeps the first {@code keep} warnings, each cut to {@code chars}, and says how many were left out. */
    private static void shortenWarnings(ObjectNode root, int keep, int chars) {
        if (!(root.get("warn") instanceof ArrayNode warnings)) {
            return;
        }
        int total = warnings.size();
        ArrayNode shortened = JSON.createArrayNode();
        for (int i = 0; i < Math.min(keep, total); i++) {
            shortened.add(cut(warnings.get(i).asText(), chars));
        }
        if (total > keep) {
            shortened.add("+" + (total - keep) + " more warnings in the runner's log");
        }
        root.set("warn", shortened);
    }

    /** Keeps the three most frequent failure classes and adds the rest up under "other". */
    private static void fewerFailureClasses(ObjectNode root) {
        if (!(root.get("fails") instanceof ObjectNode fails) || fails.size() <= 4) {
            return;
        }
        List<Map.Entry<String, Integer>> counts = new ArrayList<>();
        fails.properties()
                .forEach(field ->
                        counts.add(Map.entry(field.getKey(), field.getValue().asInt())));
        counts.sort(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()));
        Map<String, Integer> kept = new TreeMap<>();
        counts.subList(0, 3).forEach(entry -> kept.put(cut(entry.getKey(), 32), entry.getValue()));
        kept.merge(
                "other",
                counts.subList(3, counts.size()).stream()
                        .mapToInt(Map.Entry::getValue)
                        .sum(),
                Integer::sum);
        root.set("fails", JSON.valueToTree(kept));
    }

    private static CompactSummary.Stage stage(StageReport stage) {
        return new CompactSummary.Stage(
                stage.name(),
                stage.maxConcurrency() == null ? 0 : stage.maxConcurrency(),
                stage.completed(),
                stage.failed(),
                round(stage.durationSeconds()),
                round(stage.outputThroughput()),
                round(stage.totalTokenThroughput()),
                round(stage.requestThroughput()),
                round(stage.achievedConcurrency()),
                array(stage.latency(StageReport.TTFT)),
                array(stage.latency(StageReport.TPOT)),
                array(stage.latency(StageReport.ITL)),
                array(stage.latency(StageReport.E2E)),
                stage.requestRate(),
                round(stage.achievedRequestRate()),
                lag(stage.latency(StageReport.SCHEDULE_LAG)),
                round(stage.sloAttainment()),
                round(stage.goodputRequestRate()),
                round(stage.goodputOutputThroughput()),
                round(stage.specAcceptLength()),
                stage.server() == null ? null : round(stage.server().cacheHitRate()),
                round(stage.cachedPromptShare()),
                stage.turns() == null
                        ? null
                        : stage.turns().stream()
                                .map(turn -> new CompactSummary.Turn(
                                        turn.turn(),
                                        turn.completed(),
                                        turn.medianTtftMillis() == null
                                                ? null
                                                : new double[] {
                                                    round(turn.medianTtftMillis()), round(turn.p99TtftMillis())
                                                },
                                        round(turn.cachedPromptShare())))
                                .toList());
    }

    private static double[] lag(LatencySummary summary) {
        return summary == null
                ? null
                : new double[] {round(summary.median()), round(summary.p99()), round(summary.max())};
    }

    private static double[] array(LatencySummary summary) {
        return summary == null
                ? null
                : new double[] {
                    round(summary.mean()),
                    round(summary.median()),
                    round(summary.p90()),
                    round(summary.p99()),
                    round(summary.max())
                };
    }

    private static List<String> warnings(List<String> warnings) {
        return warnings.isEmpty()
                ? null
                : warnings.stream()
                        .map(warning -> cut(warning, MAX_WARNING_CHARS))
                        .toList();
    }

    /** Three significant digits or so: enough for a status, short in JSON. */
    static Double round(Double value) {
        if (value == null || value.isNaN() || value.isInfinite()) {
            return null;
        }
        double magnitude = Math.abs(value);
        double scale = magnitude >= 1000 ? 1 : magnitude >= 10 ? 10 : magnitude >= 1 ? 100 : 1000;
        return Math.round(value * scale) / scale;
    }

    private static double round(double value) {
        Double rounded = round(Double.valueOf(value));
        return rounded == null ? 0 : rounded;
    }

    /** At most {@code max} code points, never splitting a surrogate pair; an ellipsis marks the cut. */
    static String cut(String text, int max) {
        if (text == null || text.codePointCount(0, text.length()) <= max) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, max - 1)) + "…";
    }
}
