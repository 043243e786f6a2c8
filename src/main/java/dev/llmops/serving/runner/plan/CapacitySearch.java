package dev.llmops.serving.runner.plan;

import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.CapacityOutcome;
import dev.llmops.serving.api.contract.PlainNumber;
import dev.llmops.serving.api.contract.RunnerFlags;
import dev.llmops.serving.runner.output.StageReport;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Decides, from the verdicts of the probes so far, the load of the next capacity probe — or that the search is over
 * and why. It holds no I/O: the runner runs each probe and reports its verdict back.
 *
 * <p>The search doubles the load from {@code start} until a probe misses the SLO (halving instead while nothing has
 * met it), then bisects between the highest load that met it and the lowest that missed it, down to one stream or a
 * relative gap of {@value #RATE_RESOLUTION} for rates (rates are rounded to three significant digits), and finally
 * probes the highest met load once more: the capacity is found when that load has met the SLO twice; if the re-run
 * misses, that load counts as missed and the search goes on below it. A load with any missed probe counts as missed,
 * and met probes above the lowest missed load are ignored, so one lucky probe cannot raise the capacity.
 */
public final class CapacitySearch {

    /** Bisection of rates stops when the lowest missed rate is within this share above the highest met one. */
    public static final double RATE_RESOLUTION = 0.05;

    /** Rates are not probed below this many requests per second. */
    static final double MIN_RATE = 0.01;

    /** What one probe showed; {@code report} carries its figures for the capacity report. */
    public record Verdict(double load, boolean met, boolean stoppedEarly, StageReport report) {}

    private final CapacityMode mode;
    private final double start;
    private final int maxProbes;
    private final double maxSearchSeconds;
    private final List<Verdict> verdicts = new ArrayList<>();
    private CapacityOutcome outcome;
    private String reason;

    public CapacitySearch(CapacityMode mode, double start, int maxProbes, double maxSearchSeconds) {
        this.mode = mode;
        this.start = mode == CapacityMode.Concurrency ? 1 : Math.max(MIN_RATE, round(start));
        this.maxProbes = maxProbes;
        this.maxSearchSeconds = maxSearchSeconds;
    }

    public void record(Verdict verdict) {
        verdicts.add(verdict);
    }

    public List<Verdict> verdicts() {
        return List.copyOf(verdicts);
    }

    /** Null until {@link #next} returned empty. */
    public CapacityOutcome outcome() {
        return outcome;
    }

    public String reason() {
        return reason;
    }

    /** The highest load that met the SLO and lies below every missed load, or null. */
    Double highestMet() {
        Double lowestMissed = lowestMissed();
        Double highest = null;
        for (Verdict verdict : verdicts) {
            if (isMet(verdict.load()) && (lowestMissed == null || verdict.load() < lowestMissed)) {
                highest = highest == null ? verdict.load() : Math.max(highest, verdict.load());
            }
        }
        return highest;
    }

    /** The last probe at the {@link #highestMet} load, whose figures the capacity report shows; null without one. */
    public Verdict boundary() {
        Double highest = highestMet();
        if (highest == null) {
            return null;
        }
        return verdicts.stream()
                .filter(verdict -> verdict.load() == highest)
                .reduce((first, second) -> second)
                .orElseThrow();
    }

    /**
     * The load of the next probe, or empty when the search is over (then {@link #outcome} and {@link #reason} say
     * how it ended).
     *
     * @param elapsedSeconds time since the search began
     */
    public Optional<Double> next(double elapsedSeconds) {
        if (outcome != null) {
            return Optional.empty();
        }
        if (verdicts.isEmpty()) {
            return Optional.of(start);
        }
        Double missed = lowestMissed();
        Double met = highestMet();
        double wanted;
        if (missed == null) {
            double ceiling =
                    mode == CapacityMode.Concurrency ? RunnerFlags.MAX_CONCURRENCY_LEVEL : RunnerFlags.MAX_RATE;
            if (met >= ceiling) {
                return end(
                        CapacityOutcome.Found,
                        "the SLO held up to " + load(met) + ", the highest load the runner probes");
            }
            wanted = Math.min(ceiling, mode == CapacityMode.Concurrency ? 2 * met : round(2 * met));
        } else if (met == null) {
            wanted = mode == CapacityMode.Concurrency ? Math.floor(missed / 2) : round(missed / 2);
            if (wanted < (mode == CapacityMode.Concurrency ? 1 : MIN_RATE)) {
                return end(
                        CapacityOutcome.NeverMet, "no load met the SLO: " + missedText(missed) + ", the lowest probed");
            }
        } else {
            double middle =
                    mode == CapacityMode.Concurrency ? Math.floor((met + missed) / 2) : round((met + missed) / 2);
            boolean converged = mode == CapacityMode.Concurrency
                    ? missed - met <= 1
                    : missed <= met * (1 + RATE_RESOLUTION) || middle <= met || middle >= missed;
            if (!converged) {
                wanted = middle;
            } else if (probesAt(met) >= 2) {
                return end(
                        CapacityOutcome.Found,
                        load(met) + " met the SLO in " + probesAt(met) + " probes (attainment " + attainment(boundary())
                                + "); " + missedText(missed));
            } else {
                wanted = met;
            }
        }
        if (verdicts.size() >= maxProbes || elapsedSeconds >= maxSearchSeconds) {
            String budget = verdicts.size() >= maxProbes
                    ? "all " + maxProbes + " probes were used"
                    : String.format(Locale.ROOT, "the %.0f s search budget ran out", maxSearchSeconds);
            return met == null
                    ? end(CapacityOutcome.NeverMet, budget + " and no load met the SLO; " + missedText(missed))
                    : end(
                            CapacityOutcome.BudgetExhausted,
                            budget + " before the boundary was confirmed: " + load(met) + " met the SLO"
                                    + (missed == null ? "" : ", " + missedText(missed)));
        }
        return Optional.of(wanted);
    }

    /** A load as people read it: {@code 24 streams}, {@code 7.5 req/s}. */
    String load(double value) {
        return mode == CapacityMode.Concurrency
                ? (int) value + (value == 1 ? " stream" : " streams")
                : PlainNumber.text(value) + " req/s";
    }

    /** Three significant digits, so stage names stay short and bisection ends. */
    static double round(double rate) {
        return BigDecimal.valueOf(rate).round(new MathContext(3)).doubleValue();
    }

    private Optional<Double> end(CapacityOutcome how, String why) {
        outcome = how;
        reason = why;
        return Optional.empty();
    }

    private String missedText(double missed) {
        Verdict last = verdicts.stream()
                .filter(verdict -> verdict.load() == missed && !verdict.met())
                .reduce((first, second) -> second)
                .orElseThrow();
        return load(missed) + " missed it (attainment " + attainment(last)
                + (last.stoppedEarly() ? ", stopped early" : "") + ")";
    }

    private static String attainment(Verdict verdict) {
        Double value = verdict.report() == null ? null : verdict.report().sloAttainment();
        return value == null ? "none" : String.format(Locale.ROOT, "%.3f", value);
    }

    private Double lowestMissed() {
        Double lowest = null;
        for (Verdict verdict : verdicts) {
            if (!verdict.met()) {
                lowest = lowest == null ? verdict.load() : Math.min(lowest, verdict.load());
            }
        }
        return lowest;
    }

    private boolean isMet(double load) {
        return verdicts.stream().filter(verdict -> verdict.load() == load).allMatch(Verdict::met);
    }

    private long probesAt(double load) {
        return verdicts.stream().filter(verdict -> verdict.load() == load).count();
    }
}
