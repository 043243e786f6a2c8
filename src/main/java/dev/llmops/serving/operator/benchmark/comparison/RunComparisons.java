package dev.llmops.serving.operator.benchmark.comparison;

import dev.llmops.serving.api.contract.PlainNumber;
import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.QualityComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.SpeedVerdict;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.QualitySpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.ReferenceSpec;
import dev.llmops.serving.comparison.PairedSpeedups;
import dev.llmops.serving.comparison.SamplesRead;
import dev.llmops.serving.operator.toolkit.Conditions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The comparisons of a succeeded run with spec.baseline and spec.reference, and the conditions they decide:
 * BaselineCompared, Regressed, Improved and QualitySuspect. Each comparison is made once, when the other run has
 * succeeded, and then kept, so the status does not change on later reconciles. Makes no API call: the other runs and
 * their samples come in as observed.
 */
public final class RunComparisons {

    /** How many stages a Regressed or Improved message names before it says how many more there are. */
    private static final int STAGES_NAMED = 3;

    private final Conditions conditions;

    public RunComparisons(Conditions conditions) {
        this.conditions = conditions;
    }

    /**
     * {@code own}: this run's samples, asked for only when a comparison is made; {@code samplesOf}: another run's
     * samples, from the ConfigMap a status names.
     */
    public void apply(
            BenchmarkRun run,
            BenchmarkRunStatus status,
            Optional<BenchmarkRun> baseline,
            Optional<BenchmarkRun> reference,
            Supplier<SamplesRead> own,
            Function<BenchmarkRunStatus, SamplesRead> samplesOf,
            Long generation) {
        compareWithBaseline(run, status, baseline, own, samplesOf, generation);
        compareWithReference(run, status, reference, own, samplesOf, generation);
        judgeQuality(run, status, generation);
        for (BaselineComparison comparison : new BaselineComparison[] {status.comparison, status.referenceComparison}) {
            if (comparison != null) {
                comparison.speedup = SpeedupHeadline.of(comparison, status);
            }
        }
    }

    private void compareWithBaseline(
            BenchmarkRun run,
            BenchmarkRunStatus status,
            Optional<BenchmarkRun> baseline,
            Supplier<SamplesRead> own,
            Function<BenchmarkRunStatus, SamplesRead> samplesOf,
            Long generation) {
        String name = run.getSpec().baseline;
        if (name == null || status.comparison != null) {
            return;
        }
        BenchmarkRunPhase phase = phase(baseline);
        String compared = ConditionTypes.BASELINE_COMPARED;
        if (baseline.isEmpty()) {
            conditions.set(
                    status.conditions,
                    compared,
                    Conditions.FALSE,
                    ConditionReasons.BASELINE_NOT_FOUND,
                    "Baseline BenchmarkRun " + name + " does not exist in this namespace: no comparison.",
                    generation);
        } else if (phase == BenchmarkRunPhase.Failed) {
            conditions.set(
                    status.conditions,
                    compared,
                    Conditions.FALSE,
                    ConditionReasons.BASELINE_FAILED,
                    "Baseline BenchmarkRun " + name + " failed: no comparison.",
                    generation);
        } else if (phase == BenchmarkRunPhase.Succeeded) {
            status.comparison = PairedSpeedups.compare(
                    name, status, baseline.get().getStatus(), own.get(), samples(baseline.get(), samplesOf), 0);
            conditions.set(
                    status.conditions,
                    compared,
                    Conditions.TRUE,
                    ConditionReasons.COMPARED,
                    SpeedupHeadline.describe(status.comparison, status) + ".",
                    generation);
        } else {
            conditions.set(
                    status.conditions,
                    compared,
                    Conditions.FALSE,
                    ConditionReasons.BASELINE_PENDING,
                    "Waiting for baseline BenchmarkRun " + name + " to finish (phase "
                            + (phase == null ? "none yet" : phase) + ").",
                    generation);
        }
    }

    private void compareWithReference(
            BenchmarkRun run,
            BenchmarkRunStatus status,
            Optional<BenchmarkRun> reference,
            Supplier<SamplesRead> own,
            Function<BenchmarkRunStatus, SamplesRead> samplesOf,
            Long generation) {
        ReferenceSpec spec = run.getSpec().reference;
        if (spec == null || status.referenceComparison != null) {
            return;
        }
        BenchmarkRunPhase phase = phase(reference);
        if (reference.isEmpty()) {
            verdicts(
                    status,
                    ConditionReasons.REFERENCE_NOT_FOUND,
                    "Reference BenchmarkRun " + spec.name + " does not exist in this namespace.",
                    generation);
        } else if (phase == BenchmarkRunPhase.Failed) {
            verdicts(
                    status,
                    ConditionReasons.REFERENCE_FAILED,
                    "Reference BenchmarkRun " + spec.name + " failed: nothing to compare with.",
                    generation);
        } else if (phase != BenchmarkRunPhase.Succeeded) {
            verdicts(
                    status,
                    ConditionReasons.REFERENCE_PENDING,
                    "Waiting for reference BenchmarkRun " + spec.name + " to finish (phase "
                            + (phase == null ? "none yet" : phase) + ").",
                    generation);
        } else {
            double tolerance = tolerancePercent(spec) / 100.0;
            status.referenceComparison = PairedSpeedups.compare(
                    spec.name,
                    status,
                    reference.get().getStatus(),
                    own.get(),
                    samples(reference.get(), samplesOf),
                    tolerance);
            judgeSpeed(status, spec, generation);
        }
    }

    /** Regressed and Improved from the verdicts of the reference comparison. */
    private void judgeSpeed(BenchmarkRunStatus status, ReferenceSpec spec, Long generation) {
        BaselineComparison comparison = status.referenceComparison;
        List<StageSpeedup> slower = withVerdict(comparison, SpeedVerdict.Slower);
        List<StageSpeedup> faster = withVerdict(comparison, SpeedVerdict.Faster);
        boolean anyVerdict = comparison.stages.stream().anyMatch(s -> s.verdict != null);
        if (comparison.workloadMatched == null) {
            verdicts(status, ConditionReasons.NO_SAMPLES, comparison.message, generation);
        } else if (!anyVerdict) {
            verdicts(
                    status,
                    ConditionReasons.NOT_COMPARABLE,
                    comparison.message != null ? comparison.message : "No stage has a verdict.",
                    generation);
        } else if (!slower.isEmpty()) {
            String message = PairedSpeedups.bounded(describe(slower, spec, "slower"));
            set(status, ConditionTypes.REGRESSED, Conditions.TRUE, ConditionReasons.REGRESSED, message, generation);
            set(status, ConditionTypes.IMPROVED, Conditions.FALSE, ConditionReasons.REGRESSED, message, generation);
        } else if (!faster.isEmpty()) {
            String message = PairedSpeedups.bounded(describe(faster, spec, "faster"));
            set(status, ConditionTypes.REGRESSED, Conditions.FALSE, ConditionReasons.IMPROVED, message, generation);
            set(status, ConditionTypes.IMPROVED, Conditions.TRUE, ConditionReasons.IMPROVED, message, generation);
        } else {
            String message = "No stage's throughput moved beyond the noise against reference " + spec.name
                    + " (95 % interval including no change, or a change within " + tolerancePercent(spec) + " %).";
            set(status, ConditionTypes.REGRESSED, Conditions.FALSE, ConditionReasons.WITHIN_NOISE, message, generation);
            set(status, ConditionTypes.IMPROVED, Conditions.FALSE, ConditionReasons.WITHIN_NOISE, message, generation);
        }
    }

    /** QualitySuspect from the greedy outputs' agreement with the baseline's and the reference's. */
    private void judgeQuality(BenchmarkRun run, BenchmarkRunStatus status, Long generation) {
        QualitySpec spec = run.getSpec().quality;
        double minimum =
                spec == null || spec.minAgreement == null ? QualitySpec.DEFAULT_MIN_AGREEMENT : spec.minAgreement;
        List<String> diverging = new ArrayList<>();
        List<String> agreeing = new ArrayList<>();
        for (BaselineComparison comparison : new BaselineComparison[] {status.comparison, status.referenceComparison}) {
            if (comparison == null || comparison.quality == null || comparison.quality.prefixAgreement == null) {
                continue;
            }
            String text = describe(comparison.baseline, comparison.quality);
            (comparison.quality.prefixAgreement < minimum ? diverging : agreeing).add(text);
        }
        if (!diverging.isEmpty()) {
            set(
                    status,
                    ConditionTypes.QUALITY_SUSPECT,
                    Conditions.TRUE,
                    ConditionReasons.OUTPUTS_DIVERGE,
                    PairedSpeedups.bounded("Greedy outputs diverge: " + String.join("; ", diverging)
                            + ", below spec.quality.minAgreement " + number(minimum)
                            + ". Speculative decoding should change the speed, not the greedy output: check"
                            + " the speculative kernels and the verification before trusting the speedup."),
                    generation);
        } else if (!agreeing.isEmpty()) {
            set(
                    status,
                    ConditionTypes.QUALITY_SUSPECT,
                    Conditions.FALSE,
                    ConditionReasons.OUTPUTS_AGREE,
                    PairedSpeedups.bounded("Greedy outputs agree: " + String.join("; ", agreeing)
                            + ", at least spec.quality.minAgreement " + number(minimum) + "."),
                    generation);
        }
    }

    private void verdicts(BenchmarkRunStatus status, String reason, String message, Long generation) {
        set(status, ConditionTypes.REGRESSED, Conditions.UNKNOWN, reason, message, generation);
        set(status, ConditionTypes.IMPROVED, Conditions.UNKNOWN, reason, message, generation);
    }

    private void set(
            BenchmarkRunStatus status, String type, String value, String reason, String message, Long generation) {
        conditions.set(status.conditions, type, value, reason, message, generation);
    }

    private static SamplesRead samples(BenchmarkRun other, Function<BenchmarkRunStatus, SamplesRead> samplesOf) {
        return other.getStatus().samples == null
                ? SamplesRead.missing("its status names no samples ConfigMap")
                : samplesOf.apply(other.getStatus());
    }

    private static List<StageSpeedup> withVerdict(BaselineComparison comparison, SpeedVerdict verdict) {
        return comparison.stages.stream().filter(s -> s.verdict == verdict).toList();
    }

    /** "Stage c16 output tok/s 0.8× reference r1's (95 % interval 0.78–0.82), ...; beyond the 5 % tolerance." */
    private static String describe(List<StageSpeedup> stages, ReferenceSpec spec, String direction) {
        List<String> named = stages.stream()
                .limit(STAGES_NAMED)
                .map(s -> String.format(
                        Locale.ROOT,
                        "stage %s output tok/s per stream %s× reference %s's (95 %% interval %s–%s)",
                        s.name,
                        number(s.throughputSpeedup),
                        spec.name,
                        s.throughputSpeedupInterval == null ? "?" : number(s.throughputSpeedupInterval.low),
                        s.throughputSpeedupInterval == null ? "?" : number(s.throughputSpeedupInterval.high)))
                .toList();
        String more = stages.size() > STAGES_NAMED ? " and " + (stages.size() - STAGES_NAMED) + " more stages" : "";
        return "Significantly " + direction + ": " + String.join("; ", named) + more + "; beyond the "
                + tolerancePercent(spec) + " % tolerance.";
    }

    private static String describe(String other, QualityComparison quality) {
        return String.format(
                Locale.ROOT,
                "prefix agreement %s with %s over %d prompts (%s identical, mean shared prefix %s tokens)",
                number(quality.prefixAgreement),
                other,
                quality.prompts,
                quality.exactMatchShare == null ? "?" : Math.round(100 * quality.exactMatchShare) + " %",
                number(quality.meanSharedPrefixTokens));
    }

    private static int tolerancePercent(ReferenceSpec spec) {
        return spec.tolerancePercent == null ? ReferenceSpec.DEFAULT_TOLERANCE_PERCENT : spec.tolerancePercent;
    }

    private static BenchmarkRunPhase phase(Optional<BenchmarkRun> other) {
        return other.map(r -> r.getStatus() == null ? null : r.getStatus().phase)
                .orElse(null);
    }

    private static String number(Double value) {
        return value == null ? "n/a" : PlainNumber.text(value);
    }
}
