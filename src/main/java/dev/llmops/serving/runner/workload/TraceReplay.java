package dev.llmops.serving.runner.workload;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.llmops.serving.api.contract.PlainNumber;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A trace replayed at its own timestamps: the requests of a window of its time, each sent at its offset from the
 * window's start divided by the speed, one stage per speed. The window's offsets are from the trace's first request.
 */
public final class TraceReplay {

    /** The fastest replay: a thousand times the trace's own pace. */
    public static final double MAX_SPEED = 1000;

    private final TraceDataset trace;
    private final List<Double> speeds;
    private final double fromSeconds;
    private final Double toSeconds;
    private final List<TraceDataset.Request> window;
    private final double startMillis;

    /**
     * @param speeds the replays, each one stage: 2.0 sends twice as fast as the trace did
     * @param fromSeconds where the window starts, in seconds after the trace's first request
     * @param toSeconds where it ends (exclusive), or null for the trace's end
     */
    public TraceReplay(TraceDataset trace, List<Double> speeds, double fromSeconds, Double toSeconds) {
        this.trace = trace;
        this.speeds = List.copyOf(speeds);
        this.fromSeconds = fromSeconds;
        this.toSeconds = toSeconds;
        List<TraceDataset.Request> all = trace.requests();
        double first = all.get(0).timestampMillis();
        this.startMillis = first + fromSeconds * 1000;
        double endMillis = toSeconds == null ? Double.POSITIVE_INFINITY : first + toSeconds * 1000;
        this.window = all.stream()
                .filter(r -> r.timestampMillis() >= startMillis && r.timestampMillis() < endMillis)
                .toList();
    }

    public TraceDataset trace() {
        return trace;
    }

    public List<Double> speeds() {
        return speeds;
    }

    public double fromSeconds() {
        return fromSeconds;
    }

    public Double toSeconds() {
        return toSeconds;
    }

    /** The requests of the window, in timestamp order: each replay sends exactly these. */
    public List<TraceDataset.Request> requests() {
        return window;
    }

    /** Nanoseconds from a replay's start to the intended send of request {@code index} of the window. */
    public long offsetNanos(int index, double speed) {
        return Math.round((window.get(index).timestampMillis() - startMillis) * 1e6 / speed);
    }

    /** The window's length in seconds of trace time: to its end when given, else to its last request. */
    public double spanSeconds() {
        if (toSeconds != null) {
            return toSeconds - fromSeconds;
        }
        return window.isEmpty() ? 0 : (window.get(window.size() - 1).timestampMillis() - startMillis) / 1000;
    }

    /**
     * The trace's mean arrival rate over the window, in requests per second to three decimals, replayed at
     * {@code speed}.
     */
    public double rate(double speed) {
        double span = spanSeconds();
        return round(span > 0 ? window.size() * speed / span : window.size(), 1000);
    }

    /** Why this replay cannot run, or null when it can. */
    public String problem() {
        if (speeds.isEmpty()) {
            return "needs at least one speed";
        }
        if (speeds.stream().anyMatch(speed -> !(speed > 0) || speed > MAX_SPEED)) {
            return "has a speed outside (0, " + PlainNumber.text(MAX_SPEED) + "]";
        }
        if (new HashSet<>(speeds).size() != speeds.size()) {
            return "repeats a speed";
        }
        if (!(fromSeconds >= 0) || toSeconds != null && !(toSeconds > fromSeconds)) {
            return "has a window that is not FROM,TO seconds with 0 <= FROM < TO";
        }
        if (window.isEmpty()) {
            return "has no request in its window of " + PlainNumber.text(fromSeconds) + " to "
                    + (toSeconds == null ? "the end" : PlainNumber.text(toSeconds)) + " s";
        }
        return null;
    }

    /** The shape of the window's requests, for the report. */
    public Shape shape() {
        int[] input = window.stream()
                .mapToInt(TraceDataset.Request::inputLength)
                .sorted()
                .toArray();
        int[] output = window.stream()
                .mapToInt(TraceDataset.Request::outputLength)
                .sorted()
                .toArray();
        Set<Long> seen = new HashSet<>();
        long blocks = 0;
        long repeated = 0;
        for (TraceDataset.Request request : window) {
            for (long id : request.hashIds()) {
                blocks++;
                if (!seen.add(id)) {
                    repeated++;
                }
            }
        }
        return new Shape(
                window.size(),
                round(spanSeconds(), 1000),
                rate(1),
                Lengths.of(input),
                Lengths.of(output),
                blocks == 0 ? null : round((double) repeated / blocks, 10000));
    }

    private static double round(double value, double scale) {
        return Math.round(value * scale) / scale;
    }

    /**
     * What the replayed window holds.
     *
     * @param requests requests each replay sends
     * @param spanSeconds the window's length in trace time
     * @param rate its mean arrival rate at 1x, requests per second
     * @param inputTokens prompt lengths
     * @param outputTokens output lengths
     * @param repeatedBlockShare of the prompt blocks the trace names, the share whose hash id came earlier in the
     *     window: what an unbounded prefix cache could serve
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Shape(
            @JsonProperty("requests") int requests,
            @JsonProperty("span_s") double spanSeconds,
            @JsonProperty("rate_1x") double rate,
            @JsonProperty("input_tokens") Lengths inputTokens,
            @JsonProperty("output_tokens") Lengths outputTokens,
            @JsonProperty("repeated_block_share") Double repeatedBlockShare) {}

    /** A length distribution by its median, 90th percentile and maximum (nearest rank). */
    public record Lengths(
            @JsonProperty("p50") int p50,
            @JsonProperty("p90") int p90,
            @JsonProperty("max") int max) {

        static Lengths of(int[] sorted) {
            return new Lengths(rank(sorted, 0.5), rank(sorted, 0.9), sorted[sorted.length - 1]);
        }

        private static int rank(int[] sorted, double quantile) {
            return sorted[Math.max(0, (int) Math.ceil(quantile * sorted.length) - 1)];
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TraceReplay that
                && trace.equals(that.trace)
                && speeds.equals(that.speeds)
                && fromSeconds == that.fromSeconds
                && Objects.equals(toSeconds, that.toSeconds);
    }

    @Override
    public int hashCode() {
        return Objects.hash(trace, speeds, fromSeconds, toSeconds);
    }

    @Override
    public String toString() {
        return trace + " at " + speeds + "x";
    }
}
