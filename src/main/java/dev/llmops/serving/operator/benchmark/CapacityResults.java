package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.CapacityOutcome;
import dev.llmops.serving.api.contract.CompactSummary;
import dev.llmops.serving.api.contract.PlainNumber;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.CapacityResult;
import java.util.Locale;

/**
 * The status form of a capacity search's result, with the load as kubectl get shows it: {@code 24 streams},
 * {@code 7.5 req/s}, {@code none} when the SLO was never met, and {@code >=} in front when the budget ran out first.
 */
public final class CapacityResults {

    static final String NONE = "none";
    static final String LOWER_BOUND = ">=";

    private CapacityResults() {}

    /** From a summary {@link SummaryParser} validated. */
    static CapacityResult of(CompactSummary.Capacity capacity) {
        CapacityResult result = new CapacityResult();
        result.mode = CapacityMode.fromText(capacity.mode()).orElseThrow();
        result.outcome = CapacityOutcome.fromText(capacity.outcome()).orElseThrow();
        if (result.outcome != CapacityOutcome.NeverMet) {
            result.concurrency = result.mode == CapacityMode.Concurrency ? capacity.concurrency() : null;
            result.requestRate = result.mode == CapacityMode.Rate ? capacity.requestRate() : null;
        }
        result.load = load(result);
        result.message = capacity.reason() == null ? null : printable(capacity.reason());
        result.outputTokensPerSecond = capacity.outputTokensPerSecond();
        result.requestsPerSecond = capacity.requestsPerSecond();
        result.sloAttainment = capacity.sloAttainment();
        result.goodputRequestsPerSecond = capacity.goodputRequestsPerSecond();
        result.goodputOutputTokensPerSecond = capacity.goodputTokensPerSecond();
        result.ttftP99Millis = capacity.p99TtftMillis();
        result.tpotP99Millis = capacity.p99TpotMillis();
        result.itlP99Millis = capacity.p99ItlMillis();
        result.e2eP99Millis = capacity.p99E2eMillis();
        result.probes = capacity.probes();
        return result;
    }

    static String load(CapacityResult capacity) {
        if (capacity.outcome == CapacityOutcome.NeverMet) {
            return NONE;
        }
        String load = capacity.mode == CapacityMode.Rate
                ? PlainNumber.text(capacity.requestRate) + " req/s"
                : capacity.concurrency + (capacity.concurrency == 1 ? " stream" : " streams");
        return capacity.outcome == CapacityOutcome.BudgetExhausted ? LOWER_BOUND + load : load;
    }

    /** One sentence for the run's event: the load, what it carried and how the search ended. */
    static String describe(CapacityResult capacity) {
        StringBuilder text = new StringBuilder(
                capacity.outcome == CapacityOutcome.NeverMet
                        ? "No load met the SLO"
                        : "Capacity under the SLO: " + capacity.load);
        if (capacity.outputTokensPerSecond != null) {
            text.append(String.format(Locale.ROOT, ", %.1f output tok/s", capacity.outputTokensPerSecond));
        }
        if (capacity.sloAttainment != null) {
            text.append(String.format(Locale.ROOT, ", attainment %.3f", capacity.sloAttainment));
        }
        if (capacity.probes != null) {
            text.append(" (")
                    .append(capacity.probes)
                    .append(capacity.probes == 1 ? " probe" : " probes")
                    .append(')');
        }
        text.append('.');
        if (capacity.message != null && !capacity.message.isBlank()) {
            text.append(' ').append(capacity.message);
        }
        return text.toString();
    }

    /** The runner's words without control characters, which a status or an event must not carry. */
    private static String printable(String text) {
        return text.replaceAll("\\p{Cntrl}", " ").strip();
    }
}
