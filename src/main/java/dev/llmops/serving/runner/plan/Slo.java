package dev.llmops.serving.runner.plan;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.llmops.serving.api.contract.BenchmarkDefaults;
import dev.llmops.serving.runner.transport.RequestResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A latency objective in the DistServe sense: a request is good when it succeeded and met every given limit, and a
 * stage meets the objective when the share of good requests (its attainment) is at least {@code attainment}.
 *
 * @param ttftMillis limit on a request's time to first token (from its intended send), or null
 * @param tpotMillis limit on a request's time per output token, or null
 * @param itlMillis limit on the p99 of a request's own inter-token latencies, or null
 * @param e2eMillis limit on a request's end-to-end latency (from its intended send), or null
 * @param attainment the share of good requests a stage needs, in (0, 1]
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Slo(
        @JsonProperty("ttft_p99_ms") Double ttftMillis,
        @JsonProperty("tpot_p99_ms") Double tpotMillis,
        @JsonProperty("itl_p99_ms") Double itlMillis,
        @JsonProperty("e2e_p99_ms") Double e2eMillis,
        @JsonProperty("attainment") double attainment) {

    /** No limits: every successful request is good, and nothing reports attainment or goodput. */
    public static final Slo NONE = new Slo(null, null, null, null, BenchmarkDefaults.SLO_ATTAINMENT);

    /** True when at least one limit is given. */
    @JsonIgnore
    public boolean hasLimits() {
        return ttftMillis != null || tpotMillis != null || itlMillis != null || e2eMillis != null;
    }

    /** Whether a finished request, meant to be sent at {@code intendedNanos}, succeeded and met every limit. */
    public boolean isGood(RequestResult result, long intendedNanos) {
        if (!result.succeeded()) {
            return false;
        }
        if (ttftMillis != null
                && (result.firstTokenNanos() == RequestResult.NO_TIME
                        || (result.firstTokenNanos() - intendedNanos) / 1e6 > ttftMillis)) {
            return false;
        }
        if (e2eMillis != null && (result.endNanos() - intendedNanos) / 1e6 > e2eMillis) {
            return false;
        }
        if (tpotMillis != null
                && result.tpotMillis().isPresent()
                && result.tpotMillis().getAsDouble() > tpotMillis) {
            return false;
        }
        return itlMillis == null || ownItlP99Nanos(result) / 1e6 <= itlMillis;
    }

    /** The p99 (nearest rank) of one request's inter-token latencies, each chunk's value counted once per token. */
    static long ownItlP99Nanos(RequestResult result) {
        List<long[]> gaps = new ArrayList<>();
        long[] total = new long[1];
        result.forEachInterTokenLatency((nanos, tokens) -> {
            gaps.add(new long[] {nanos, tokens});
            total[0] += tokens;
        });
        if (total[0] == 0) {
            return 0;
        }
        gaps.sort(Comparator.comparingLong(gap -> gap[0]));
        long rank = (long) Math.ceil(0.99 * total[0]);
        long seen = 0;
        for (long[] gap : gaps) {
            seen += gap[1];
            if (seen >= rank) {
                return gap[0];
            }
        }
        return gaps.get(gaps.size() - 1)[0];
    }
}
