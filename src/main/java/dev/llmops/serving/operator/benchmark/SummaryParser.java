package dev.llmops.serving.operator.benchmark;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.CapacityOutcome;
import dev.llmops.serving.api.contract.CompactSummary;
import dev.llmops.serving.api.contract.RunnerFlags;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads the runner's termination-message summary (format version 1 or 2) and rejects anything the status must not show:
 * a figure that is not a finite non-negative number, a share outside [0, 1], a stage without a name, a capacity whose
 * mode or outcome this operator does not know or whose reason is too long, a format version this operator does not
 * know.
 */
public final class SummaryParser {

    private static final int LATENCY_FIGURES = 5;
    private static final int LAG_FIGURES = 3;
    private static final int OLDEST_VERSION = 1;
    /** Longest capacity reason the status takes, in characters. */
    static final int MAX_REASON_CHARS = 200;

    private static final Pattern DIGEST = Pattern.compile("[0-9a-f]{1,64}");

    private static final List<String> MODES =
            Arrays.stream(CapacityMode.values()).map(CapacityMode::text).toList();
    private static final List<String> OUTCOMES =
            Arrays.stream(CapacityOutcome.values()).map(CapacityOutcome::text).toList();
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    private SummaryParser() {}

    public static CompactSummary parse(String message) throws InvalidSummaryException {
        if (message == null || message.isBlank()) {
            throw new InvalidSummaryException("the benchmark pod left no summary in its termination message");
        }
        CompactSummary summary;
        try {
            summary = MAPPER.readValue(message, CompactSummary.class);
        } catch (JsonProcessingException e) {
            String text = message.strip();
            if (e instanceof JsonEOFException || text.startsWith("{") && !text.endsWith("}")) {
                throw new InvalidSummaryException("the summary is cut off after "
                        + message.getBytes(StandardCharsets.UTF_8).length + " bytes (incomplete JSON)");
            }
            throw new InvalidSummaryException("the summary is not valid JSON (" + e.getOriginalMessage()
                    + "); it begins: " + abbreviate(message, 80));
        }
        if (summary == null) {
            throw new InvalidSummaryException("the summary is JSON null");
        }
        validate(summary);
        return summary;
    }

    /**
     * A summary the runner left when it gave up (no stages, a warning saying why) or when every request failed: read
     * without the checks a result must pass, to explain a failed Job. Empty when the text is not a summary.
     */
    public static Optional<CompactSummary> readFailure(String message) {
        try {
            CompactSummary summary = MAPPER.readValue(message, CompactSummary.class);
            return summary != null && knownVersion(summary.version()) ? Optional.of(summary) : Optional.empty();
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    private static void validate(CompactSummary summary) throws InvalidSummaryException {
        if (!knownVersion(summary.version())) {
            throw new InvalidSummaryException("the summary has format version " + summary.version()
                    + ", this operator reads versions " + OLDEST_VERSION + " to " + CompactSummary.FORMAT_VERSION);
        }
        if (summary.stages() == null || summary.stages().isEmpty()) {
            throw new InvalidSummaryException("the summary lists no stages");
        }
        for (int i = 0; i < summary.stages().size(); i++) {
            validate(summary.stages().get(i), "stages[" + i + "]");
        }
        List<CompactSummary.SinglePrompt> single =
                summary.singleRequests() == null ? List.of() : summary.singleRequests();
        for (int i = 0; i < single.size(); i++) {
            CompactSummary.SinglePrompt prompt = single.get(i);
            String path = "single[" + i + "]";
            requireNotNull(prompt, path);
            count(prompt.outputTokens(), path + ".out");
            figure(prompt.tokensPerSecond(), path + ".tps");
            figure(prompt.ttftMillis(), path + ".ttft");
            figure(prompt.e2eMillis(), path + ".e2e");
        }
        CompactSummary.Headline headline = summary.headline();
        if (headline != null) {
            figure(headline.singleStreamTokensPerSecond(), "sum.sstps");
            figure(headline.peakTokensPerSecond(), "sum.peak");
            level(headline.peakConcurrency(), "sum.peakc");
            level(headline.kneeConcurrency(), "sum.knee");
            count(headline.failedRequests(), "sum.fail");
            level(headline.shards(), "sum.shards");
            figure(headline.worstShardClientLagMillis(), "sum.slag");
        }
        if (summary.failuresByClass() != null) {
            for (var entry : summary.failuresByClass().entrySet()) {
                if (entry.getValue() == null) {
                    throw new InvalidSummaryException("fails." + entry.getKey() + " is null");
                }
                count(entry.getValue(), "fails." + entry.getKey());
            }
        }
        if (summary.capacity() != null) {
            validate(summary.capacity());
        }
        if (summary.workload() != null) {
            validate(summary.workload());
        }
    }

    private static void validate(CompactSummary.Workload workload) throws InvalidSummaryException {
        if (workload.digest() != null && !DIGEST.matcher(workload.digest()).matches()) {
            throw new InvalidSummaryException("wl.d is " + abbreviate(workload.digest(), 40)
                    + ", expected a workload digest of 1 to 64 lower-case hex characters");
        }
        CompactSummary.TraceShape trace = workload.trace();
        if (trace == null) {
            return;
        }
        count(trace.requests(), "wl.tr.n");
        figure(trace.spanSeconds(), "wl.tr.span");
        figure(trace.rate(), "wl.tr.r");
        lengths(trace.inputTokens(), "wl.tr.in");
        lengths(trace.outputTokens(), "wl.tr.out");
        share(trace.repeatedBlockShare(), "wl.tr.rbs");
    }

    private static void lengths(int[] values, String path) throws InvalidSummaryException {
        if (values == null || values.length != 3) {
            throw new InvalidSummaryException(
                    path + " has " + (values == null ? "no" : values.length) + " figures, expected 3 (p50, p90, max)");
        }
        for (int i = 0; i < values.length; i++) {
            count(values[i], path + "[" + i + "]");
        }
    }

    private static boolean knownVersion(int version) {
        return version >= OLDEST_VERSION && version <= CompactSummary.FORMAT_VERSION;
    }

    private static void validate(CompactSummary.Capacity capacity) throws InvalidSummaryException {
        oneOf(capacity.mode(), MODES, "cap.m");
        oneOf(capacity.outcome(), OUTCOMES, "cap.out");
        if (capacity.reason() != null && capacity.reason().length() > MAX_REASON_CHARS) {
            throw new InvalidSummaryException(
                    "cap.why has " + capacity.reason().length() + " characters, at most " + MAX_REASON_CHARS);
        }
        level(capacity.concurrency(), "cap.c");
        rate(capacity.requestRate(), "cap.r");
        if (!CapacityOutcome.NeverMet.text().equals(capacity.outcome())) {
            boolean concurrency = CapacityMode.Concurrency.text().equals(capacity.mode());
            boolean missing = concurrency ? capacity.concurrency() == null : capacity.requestRate() == null;
            if (missing) {
                throw new InvalidSummaryException("cap." + (concurrency ? "c" : "r") + " is missing: a capacity "
                        + capacity.outcome() + " in mode " + capacity.mode() + " needs it");
            }
        }
        figure(capacity.outputTokensPerSecond(), "cap.otps");
        figure(capacity.requestsPerSecond(), "cap.rps");
        share(capacity.sloAttainment(), "cap.att");
        figure(capacity.goodputRequestsPerSecond(), "cap.gps");
        figure(capacity.goodputTokensPerSecond(), "cap.gtps");
        figure(capacity.p99TtftMillis(), "cap.ttft99");
        figure(capacity.p99TpotMillis(), "cap.tpot99");
        figure(capacity.p99ItlMillis(), "cap.itl99");
        figure(capacity.p99E2eMillis(), "cap.e2e99");
        count(capacity.probes(), "cap.np");
    }

    private static void validate(CompactSummary.Stage stage, String path) throws InvalidSummaryException {
        requireNotNull(stage, path);
        if (stage.name() == null || stage.name().isBlank()) {
            throw new InvalidSummaryException(path + " has no name");
        }
        if (stage.requestRate() == null) {
            level(stage.concurrency(), path + ".c");
        } else {
            count(stage.concurrency(), path + ".c");
        }
        rate(stage.requestRate(), path + ".r");
        figure(stage.achievedRequestRate(), path + ".ar");
        figures(stage.scheduleLagMillis(), LAG_FIGURES, path + ".lag", "(p50, p99, max)");
        share(stage.sloAttainment(), path + ".att");
        figure(stage.goodputRequestsPerSecond(), path + ".gps");
        figure(stage.goodputTokensPerSecond(), path + ".gtps");
        count(stage.completed(), path + ".ok");
        count(stage.failed(), path + ".fail");
        figure(stage.durationSeconds(), path + ".dur");
        figure(stage.outputTokensPerSecond(), path + ".otps");
        figure(stage.totalTokensPerSecond(), path + ".ttps");
        figure(stage.requestsPerSecond(), path + ".rps");
        figure(stage.achievedConcurrency(), path + ".ac");
        figure(stage.acceptLength(), path + ".acc");
        share(stage.cacheHitRate(), path + ".chr");
        share(stage.cachedPromptShare(), path + ".cps");
        latencies(stage.ttftMillis(), path + ".ttft");
        latencies(stage.tpotMillis(), path + ".tpot");
        latencies(stage.itlMillis(), path + ".itl");
        latencies(stage.e2eMillis(), path + ".e2e");
        if (stage.turns() != null) {
            if (stage.turns().size() > RunnerFlags.MAX_SESSION_TURNS) {
                throw new InvalidSummaryException(
                        path + ".trn has " + stage.turns().size() + " turns, at most " + RunnerFlags.MAX_SESSION_TURNS);
            }
            for (int i = 0; i < stage.turns().size(); i++) {
                validate(stage.turns().get(i), path + ".trn[" + i + "]");
            }
        }
    }

    private static void validate(CompactSummary.Turn turn, String path) throws InvalidSummaryException {
        requireNotNull(turn, path);
        if (turn.turn() < 1 || turn.turn() > RunnerFlags.MAX_SESSION_TURNS) {
            throw new InvalidSummaryException(
                    path + ".t is " + turn.turn() + ", outside 1 to " + RunnerFlags.MAX_SESSION_TURNS);
        }
        count(turn.completed(), path + ".ok");
        figures(turn.ttftMillis(), 2, path + ".ttft", "(p50, p99)");
        share(turn.cachedPromptShare(), path + ".cps");
    }

    private static void latencies(double[] values, String path) throws InvalidSummaryException {
        figures(values, LATENCY_FIGURES, path, "(mean, p50, p90, p99, max)");
    }

    private static void figures(double[] values, int expected, String path, String meaning)
            throws InvalidSummaryException {
        if (values == null) {
            return;
        }
        if (values.length != expected) {
            throw new InvalidSummaryException(
                    path + " has " + values.length + " figures, expected " + expected + " " + meaning);
        }
        for (int i = 0; i < values.length; i++) {
            figure(values[i], path + "[" + i + "]");
        }
    }

    private static void figure(Double value, String path) throws InvalidSummaryException {
        if (value != null && !(Double.isFinite(value) && value >= 0)) {
            throw new InvalidSummaryException(path + " is " + value + ": figures must be finite and non-negative");
        }
    }

    private static void share(Double value, String path) throws InvalidSummaryException {
        if (value != null && !(value >= 0 && value <= 1)) {
            throw new InvalidSummaryException(path + " is " + value + ": a share must be between 0 and 1");
        }
    }

    private static void rate(Double value, String path) throws InvalidSummaryException {
        if (value != null && !(Double.isFinite(value) && value > 0)) {
            throw new InvalidSummaryException(path + " is " + value + ": a request rate must be finite and positive");
        }
    }

    private static void oneOf(String value, List<String> allowed, String path) throws InvalidSummaryException {
        if (!allowed.contains(value)) {
            throw new InvalidSummaryException(path + " is " + (value == null ? "missing" : abbreviate(value, 40))
                    + ", expected one of " + String.join(", ", allowed));
        }
    }

    private static void count(int value, String path) throws InvalidSummaryException {
        if (value < 0) {
            throw new InvalidSummaryException(path + " is " + value + ": counts must be non-negative");
        }
    }

    private static void level(Integer value, String path) throws InvalidSummaryException {
        if (value != null && value < 1) {
            throw new InvalidSummaryException(path + " is " + value + ": concurrency must be at least 1");
        }
    }

    private static void requireNotNull(Object value, String path) throws InvalidSummaryException {
        if (value == null) {
            throw new InvalidSummaryException(path + " is null");
        }
    }

    public static String abbreviate(String text, int max) {
        String oneLine = text.strip().replaceAll("\\s+", " ");
        return oneLine.length() <= max ? oneLine : oneLine.substring(0, max) + "…";
    }
}
