package dev.llmops.serving.operator.benchmark.comparison;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.Provenance;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.SpeedVerdict;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.ReferenceSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.comparison.SamplesRead;
import dev.llmops.serving.operator.benchmark.JobOutcome;
import dev.llmops.serving.operator.benchmark.RunStatusReport;
import dev.llmops.serving.operator.benchmark.TargetState;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Comparisons with the baseline and the reference run computed from per-request samples of known answer: the status's
 * speedups, intervals and verdicts, and the conditions they decide. No API server; the clock is fixed.
 */
class RunComparisonsTest {

    private static final Instant CREATED = Instant.parse("2026-12-01T10:00:00Z");
    private static final String SUMMARY = """
            {"v":2,"model":"kimi-k2","stages":[
            {"n":"single","c":1,"ok":40,"fail":0,"otps":120.0,"ttft":[120,121,125,130,131],"tpot":[8,8,8,9,9],\
            "acc":3.1},
            {"n":"c8","c":8,"ok":40,"fail":0,"otps":900.0,"ttft":[130,131,140,150,151],"tpot":[8,8,8,9,9],"acc":2.9},
            {"n":"c16","c":16,"ok":40,"fail":0,"otps":1700.0,"ttft":[140,141,150,160,161],"tpot":[8,8,8,9,9]}],
            "sum":{"sstps":120.0,"peak":1700.0,"peakc":16,"fail":0}}""";

    private final Map<String, SampleSet> configMaps = new HashMap<>();
    private int samplesKept;

    @Test
    void aFinishedJobsSamplesAreNamedInTheStatusAndHandedOverForTheConfigMap() {
        SampleSet samples = PairedRuns.samples(PairedRuns.WORKLOAD, 1, 1, false);

        RunStatusReport.Report report = finish(run("eagle3", null, null), PairedRuns.logTail(samples), none(), none());

        assertThat(report.status().phase).isEqualTo(BenchmarkRunPhase.Succeeded);
        assertThat(report.status().samples).isEqualTo("eagle3-samples");
        assertThat(configMaps.get("eagle3-samples").toLogLine()).isEqualTo(samples.toLogLine());
        assertThat(report.status().samplesSha256).isEqualTo(SampleStore.sha256(samples.toGzip()));
        assertThat(report.status().warnings).noneMatch(w -> w.startsWith(RunStatusReport.NO_SAMPLES_WARNING));
        assertThat(report.status().stages).extracting(s -> s.specAcceptLength).containsExactly(3.1, 2.9, null);
    }

    @Test
    void withoutSamplesTheRunSaysWhyAndItsComparisonHasRatiosOnly() {
        BenchmarkRun baseline = stored(run("autoregressive", null, null), 1, false);

        RunStatusReport.Report unreadable = finish(run("eagle3", "autoregressive", null), null, of(baseline), none());
        RunStatusReport.Report absent = finish(run("eagle3", "autoregressive", null), "c16 done\n", none(), none());
        RunStatusReport.Report garbled =
                finish(run("eagle3", "autoregressive", null), "LLM-SERVING-SAMPLES v1 not-base64!\n", none(), none());

        assertThat(configMaps).doesNotContainKey("eagle3-samples");
        assertThat(unreadable.status().samples).isNull();
        assertThat(unreadable.status().warnings)
                .contains("No per-request samples (the benchmark pod's log could not be read): comparisons with this "
                        + "run give ratios without confidence intervals, verdicts or quality agreement.");
        assertThat(absent.status().warnings)
                .anySatisfy(w -> assertThat(w).contains("the benchmark pod's log ends without a samples line"));
        assertThat(garbled.status().phase).isEqualTo(BenchmarkRunPhase.Failed);
        assertThat(condition(garbled.status(), "Ready").getMessage())
                .startsWith("Job eagle3-bench finished but its per-request samples cannot be used: sample line is "
                        + "unreadable");
        BaselineComparison comparison = unreadable.status().comparison;
        assertThat(comparison.message)
                .isEqualTo("No confidence intervals, verdicts or quality agreement, only the ratios of the two "
                        + "statuses: no per-request samples of this run: it recorded none (see status.warnings).");
        assertThat(comparison.workloadMatched).isNull();
        assertThat(comparison.quality).isNull();
        assertThat(comparison.stages).allSatisfy(stage -> {
            assertThat(stage.verdict).isNull();
            assertThat(stage.throughputSpeedupInterval).isNull();
            assertThat(stage.throughputSpeedup).isEqualTo(1.0);
        });
        assertThat(conditions(unreadable.status())).doesNotContainKey("QualitySuspect");
    }

    @Test
    void againstTheBaselineEachStageHasPairedSpeedupsWithIntervalsVerdictsAndTheOutputsAgreement() {
        BenchmarkRun baseline = stored(run("autoregressive", null, null), 1, false);
        SampleSet twiceAsFast = PairedRuns.samples(PairedRuns.WORKLOAD, 0.5, 2, false);

        BenchmarkRunStatus status = finish(
                        run("eagle3", "autoregressive", null), PairedRuns.logTail(twiceAsFast), of(baseline), none())
                .status();

        BaselineComparison comparison = status.comparison;
        assertThat(comparison.baseline).isEqualTo("autoregressive");
        assertThat(comparison.workloadMatched).isTrue();
        assertThat(comparison.message).isNull();
        assertThat(comparison.stages).extracting(s -> s.name).containsExactly("single", "c8", "c16");
        for (StageSpeedup stage : comparison.stages) {
            assertThat(stage.pairs).isEqualTo(40);
            assertThat(stage.verdict).isEqualTo(SpeedVerdict.Faster);
            assertThat(stage.throughputSpeedup).isCloseTo(2.0, within(0.05));
            assertThat(stage.throughputSpeedupInterval.low).isGreaterThan(1.9).isLessThan(stage.throughputSpeedup);
            assertThat(stage.throughputSpeedupInterval.high).isGreaterThan(stage.throughputSpeedup);
            assertThat(stage.tpotP50Speedup).isCloseTo(2.0, within(0.05));
            assertThat(stage.tpotP50SpeedupInterval.low).isGreaterThan(1.8);
            assertThat(stage.ttftP50Speedup).isCloseTo(2.0, within(0.05));
            assertThat(stage.ttftP50SpeedupInterval.high).isLessThan(2.2);
        }
        assertThat(comparison.stages.get(0).specAcceptLength).isEqualTo(3.1);
        assertThat(comparison.stages.get(0).baselineSpecAcceptLength).isEqualTo(3.1);
        assertThat(comparison.quality.prompts).isEqualTo(3);
        assertThat(comparison.quality.exactMatchShare).isEqualTo(1.0);
        assertThat(comparison.quality.prefixAgreement).isEqualTo(1.0);
        assertThat(comparison.quality.meanSharedPrefixTokens).isEqualTo(5.0);
        assertThat(conditions(status))
                .containsEntry("BaselineCompared", "True/Compared")
                .containsEntry("QualitySuspect", "False/OutputsAgree");
        assertThat(condition(status, "QualitySuspect").getObservedGeneration()).isEqualTo(3L);
        assertThat(conditions(status)).doesNotContainKeys("Regressed", "Improved");
    }

    @Test
    void aDraftThatChangesWhatTheModelSaysIsQualitySuspectHoweverFastItIs() {
        BenchmarkRun baseline = stored(run("autoregressive", null, null), 1, false);
        SampleSet brokenDraft = PairedRuns.samples(PairedRuns.WORKLOAD, 0.4, 3, true);

        BenchmarkRunStatus status = finish(
                        run("eagle3", "autoregressive", null), PairedRuns.logTail(brokenDraft), of(baseline), none())
                .status();

        assertThat(status.comparison.quality.prefixAgreement).isEqualTo(0.2);
        assertThat(status.comparison.quality.exactMatchShare).isEqualTo(0.0);
        assertThat(conditions(status)).containsEntry("QualitySuspect", "True/OutputsDiverge");
        assertThat(condition(status, "QualitySuspect").getMessage())
                .startsWith("Greedy outputs diverge: prefix agreement 0.2 with autoregressive over 3 prompts (0 % "
                        + "identical,")
                .contains("below spec.quality.minAgreement 0.5");
    }

    @Test
    void outputsAgreeingAsMuchAsTheRunsMinAgreementAsksAreNotQualitySuspect() {
        BenchmarkRun baseline = stored(run("autoregressive", null, null), 1, false);
        BenchmarkRun lenient = run("eagle3", "autoregressive", null);
        lenient.getSpec().quality.minAgreement = 0.15;
        SampleSet brokenDraft = PairedRuns.samples(PairedRuns.WORKLOAD, 0.4, 3, true);

        BenchmarkRunStatus status = finish(lenient, PairedRuns.logTail(brokenDraft), of(baseline), none())
                .status();

        assertThat(status.comparison.quality.prefixAgreement).isEqualTo(0.2);
        assertThat(conditions(status)).containsEntry("QualitySuspect", "False/OutputsAgree");
        assertThat(condition(status, "QualitySuspect").getMessage())
                .startsWith("Greedy outputs agree: prefix agreement 0.2 with autoregressive over 3 prompts")
                .endsWith("at least spec.quality.minAgreement 0.15.");
    }

    @Test
    void aVerdictNamesThreeStagesAndCountsTheOthers() {
        List<String> fiveStages = List.of("single", "c8", "c16", "c32", "c48");
        BenchmarkRun reference = run("v1", null, null);
        reference.setStatus(finish(
                        reference,
                        PairedRuns.logTail(PairedRuns.samples(fiveStages, PairedRuns.WORKLOAD, 1, 0, false)),
                        none(),
                        none())
                .status());
        SampleSet slower = PairedRuns.samples(fiveStages, PairedRuns.WORKLOAD, 1.25, 4, false);

        BenchmarkRunStatus status = finish(run("v2", null, "v1"), PairedRuns.logTail(slower), none(), of(reference))
                .status();

        assertThat(status.referenceComparison.stages).hasSize(5);
        assertThat(condition(status, "Regressed").getMessage())
                .contains("stage single", "stage c8", "stage c16")
                .doesNotContain("stage c32", "stage c48")
                .endsWith(") and 2 more stages; beyond the 5 % tolerance.");
    }

    @Test
    void aTwentyPercentSlowdownAgainstTheReferenceIsRegressed() {
        BenchmarkRun reference = stored(run("v1", null, null), 1, false);
        SampleSet slower = PairedRuns.samples(PairedRuns.WORKLOAD, 1.25, 4, false);

        BenchmarkRunStatus status = finish(run("v2", null, "v1"), PairedRuns.logTail(slower), none(), of(reference))
                .status();

        assertThat(status.referenceComparison.baseline).isEqualTo("v1");
        assertThat(status.referenceComparison.stages).allSatisfy(stage -> {
            assertThat(stage.verdict).isEqualTo(SpeedVerdict.Slower);
            assertThat(stage.throughputSpeedup).isCloseTo(0.8, within(0.02));
            assertThat(stage.throughputSpeedupInterval.high).isLessThan(0.95);
        });
        assertThat(conditions(status))
                .containsEntry("Regressed", "True/Regressed")
                .containsEntry("Improved", "False/Regressed")
                .containsEntry("QualitySuspect", "False/OutputsAgree");
        String single =
                status.referenceComparison.stages.get(0).throughputSpeedup.toString();
        assertThat(condition(status, "Regressed").getMessage())
                .startsWith("Significantly slower: stage single output tok/s per stream " + single
                        + "× reference v1's (95 % interval ")
                .contains("stage c8", "stage c16")
                .endsWith("beyond the 5 % tolerance.");
        assertThat(condition(status, "Regressed").getMessage().length()).isLessThanOrEqualTo(600);
    }

    @Test
    void aOnePercentChangeIsWithinTheNoiseBandAndATwentyPercentGainIsImproved() {
        BenchmarkRun reference = stored(run("v1", null, null), 1, false);

        BenchmarkRunStatus same = finish(
                        run("v2", null, "v1"),
                        PairedRuns.logTail(PairedRuns.samples(PairedRuns.WORKLOAD, 1.01, 5, false)),
                        none(),
                        of(reference))
                .status();
        BenchmarkRunStatus faster = finish(
                        run("v3", null, "v1"),
                        PairedRuns.logTail(PairedRuns.samples(PairedRuns.WORKLOAD, 0.8, 6, false)),
                        none(),
                        of(reference))
                .status();

        assertThat(same.referenceComparison.stages)
                .allSatisfy(stage -> assertThat(stage.verdict).isEqualTo(SpeedVerdict.NoSignificantDifference));
        assertThat(conditions(same))
                .containsEntry("Regressed", "False/WithinNoise")
                .containsEntry("Improved", "False/WithinNoise");
        assertThat(conditions(faster))
                .containsEntry("Regressed", "False/Improved")
                .containsEntry("Improved", "True/Improved");
    }

    @Test
    void aTwentyPercentSlowdownWithinTheRunsTwentyFivePercentToleranceIsWithinTheNoiseBand() {
        BenchmarkRun reference = stored(run("v1", null, null), 1, false);
        BenchmarkRun tolerant = run("v2", null, "v1");
        tolerant.getSpec().reference.tolerancePercent = 25;
        SampleSet slower = PairedRuns.samples(PairedRuns.WORKLOAD, 1.25, 4, false);

        BenchmarkRunStatus status = finish(tolerant, PairedRuns.logTail(slower), none(), of(reference))
                .status();

        assertThat(status.referenceComparison.stages).allSatisfy(stage -> {
            assertThat(stage.throughputSpeedupInterval.high).isLessThan(0.95);
            assertThat(stage.verdict).isEqualTo(SpeedVerdict.NoSignificantDifference);
        });
        assertThat(conditions(status))
                .containsEntry("Regressed", "False/WithinNoise")
                .containsEntry("Improved", "False/WithinNoise");
        assertThat(condition(status, "Regressed").getMessage()).endsWith("or a change within 25 %).");
    }

    @Test
    void oneStageSignificantlySlowerIsRegressedHoweverMuchFasterTheOthersAre() {
        BenchmarkRun reference = stored(run("v1", null, null), 1, false);
        SampleSet mixed = PairedRuns.samples(PairedRuns.WORKLOAD, stage -> stage.equals("c16") ? 1.25 : 0.5, 10, false);

        BenchmarkRunStatus status = finish(run("v2", null, "v1"), PairedRuns.logTail(mixed), none(), of(reference))
                .status();

        assertThat(status.referenceComparison.stages)
                .extracting(stage -> stage.name + " " + stage.verdict)
                .containsExactly("single Faster", "c8 Faster", "c16 Slower");
        assertThat(conditions(status))
                .containsEntry("Regressed", "True/Regressed")
                .containsEntry("Improved", "False/Regressed");
        assertThat(condition(status, "Regressed").getMessage())
                .startsWith("Significantly slower: stage c16 output tok/s per stream ")
                .doesNotContain("stage single", "stage c8");
    }

    @Test
    void withoutAUsableReferenceTheVerdictsAreUnknownAndSayWhy() {
        BenchmarkRun run = run("v2", null, "v1");
        String log = PairedRuns.logTail(PairedRuns.samples(PairedRuns.WORKLOAD, 1.25, 7, false));

        Map<String, String> missing =
                conditions(finish(run, log, none(), none()).status());
        Map<String, String> pending =
                conditions(finish(run, log, none(), of(withPhase(run("v1", null, null), BenchmarkRunPhase.Running)))
                        .status());
        Map<String, String> failed =
                conditions(finish(run, log, none(), of(withPhase(run("v1", null, null), BenchmarkRunPhase.Failed)))
                        .status());
        BenchmarkRun unsampled = stored(run("v1", null, null), 1, false);
        configMaps.clear();
        BenchmarkRunStatus noSamples = finish(run, log, none(), of(unsampled)).status();
        BenchmarkRun otherWorkload = stored(run("v1", null, null), 1, false, "0000aaaa1111bbbb");
        BenchmarkRunStatus differentRequests =
                finish(run, log, none(), of(otherWorkload)).status();

        assertThat(missing).containsEntry("Regressed", "Unknown/ReferenceNotFound");
        assertThat(pending)
                .containsEntry("Regressed", "Unknown/ReferencePending")
                .containsEntry("Improved", "Unknown/ReferencePending");
        assertThat(failed).containsEntry("Regressed", "Unknown/ReferenceFailed");
        assertThat(conditions(noSamples)).containsEntry("Regressed", "Unknown/NoSamples");
        assertThat(condition(noSamples, "Regressed").getMessage())
                .contains("no per-request samples of run v1: ConfigMap v1-samples does not exist");
        assertThat(conditions(differentRequests)).containsEntry("Regressed", "Unknown/NotComparable");
        assertThat(differentRequests.referenceComparison.workloadMatched).isFalse();
        assertThat(condition(differentRequests, "Regressed").getMessage()).contains("the runs sent different requests");
    }

    @Test
    void theStatusStaysTheSameOnLaterReconciles() {
        BenchmarkRun reference = stored(run("v1", null, null), 1, false);
        BenchmarkRun run = run("v2", "v1", "v1");
        String log = PairedRuns.logTail(PairedRuns.samples(PairedRuns.WORKLOAD, 1.25, 8, false));
        RunStatusReport.Report first = finish(run, log, of(reference), of(reference));
        run.setStatus(first.status());
        int keptBefore = samplesKept;

        RunStatusReport.Report later = at(CREATED.plusSeconds(600))
                .build(run, observation("v2", Optional.empty(), of(reference), of(reference)));
        assertThat(samplesKept)
                .as("samples are kept once, when the Job finishes")
                .isEqualTo(keptBefore);
        BenchmarkRunStatus recomputed =
                finish(run("v2", "v1", "v1"), log, of(reference), of(reference)).status();

        assertThat(later.status()).isEqualTo(first.status());
        assertThat(recomputed.referenceComparison).isEqualTo(first.status().referenceComparison);
        assertThat(recomputed.comparison).isEqualTo(first.status().comparison);
    }

    @Test
    void aComparisonMadeAfterThisRunFinishedReadsItsOwnSamplesBack() {
        BenchmarkRun run = run("v2", null, "v1");
        RunStatusReport.Report finished = finish(
                run,
                PairedRuns.logTail(PairedRuns.samples(PairedRuns.WORKLOAD, 1.25, 9, false)),
                none(),
                of(withPhase(run("v1", null, null), BenchmarkRunPhase.Running)));
        run.setStatus(finished.status());
        BenchmarkRun reference = stored(run("v1", null, null), 1, false);

        BenchmarkRunStatus compared = at(CREATED.plusSeconds(900))
                .build(run, observation("v2", Optional.empty(), none(), of(reference)))
                .status();

        assertThat(conditions(compared)).containsEntry("Regressed", "True/Regressed");
        assertThat(condition(compared, "Regressed").getLastTransitionTime()).isEqualTo("2026-12-01T10:15:00Z");
    }

    /** The run finished with the reference summary, its samples stored under its name. */
    private BenchmarkRun stored(BenchmarkRun run, double factor, boolean broken) {
        return stored(run, factor, broken, PairedRuns.WORKLOAD);
    }

    private BenchmarkRun stored(BenchmarkRun run, double factor, boolean broken, String workload) {
        RunStatusReport.Report report =
                finish(run, PairedRuns.logTail(PairedRuns.samples(workload, factor, 0, broken)), none(), none());
        run.setStatus(report.status());
        return run;
    }

    private RunStatusReport.Report finish(
            BenchmarkRun run, String log, Optional<BenchmarkRun> baseline, Optional<BenchmarkRun> reference) {
        var job = new RunStatusReport.ObservedJob(
                run.getMetadata().getName() + "-bench", new JobOutcome.Completed(SUMMARY, null, log));
        return at(CREATED.plusSeconds(60))
                .build(run, observation(run.getMetadata().getName(), Optional.of(job), baseline, reference));
    }

    /** What a reconcile of run {@code name} observes; its samples are kept in, and read back from, the map. */
    private RunStatusReport.Observation observation(
            String name,
            Optional<RunStatusReport.ObservedJob> job,
            Optional<BenchmarkRun> baseline,
            Optional<BenchmarkRun> ref) {
        return new RunStatusReport.Observation(
                new TargetState(
                        "kimi", true, "http://kimi.llm.svc:30000", "kimi-k2", Optional.of(new ModelServer()), null),
                job,
                Provenance::new,
                baseline,
                ref,
                status -> configMaps.containsKey(status.samples)
                        ? SamplesRead.of(configMaps.get(status.samples))
                        : SamplesRead.missing("ConfigMap " + status.samples + " does not exist"),
                set -> {
                    samplesKept++;
                    configMaps.put(SampleStore.name(name), set);
                    return new SampleStore.Kept(SampleStore.name(name), SampleStore.sha256(set.toGzip()), null);
                });
    }

    private static RunStatusReport at(Instant now) {
        return new RunStatusReport(Clock.fixed(now, ZoneOffset.UTC), () -> Duration.ofSeconds(30));
    }

    private static BenchmarkRun run(String name, String baseline, String reference) {
        BenchmarkRun run = new BenchmarkRun();
        run.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace("llm")
                .withGeneration(3L)
                .withCreationTimestamp(CREATED.toString())
                .build());
        BenchmarkRunSpec spec = new BenchmarkRunSpec();
        spec.target = new BenchmarkTarget();
        spec.target.modelServer = "kimi";
        spec.baseline = baseline;
        if (reference != null) {
            spec.reference = new ReferenceSpec();
            spec.reference.name = reference;
        }
        run.setSpec(spec);
        return run;
    }

    private static BenchmarkRun withPhase(BenchmarkRun run, BenchmarkRunPhase phase) {
        run.setStatus(new BenchmarkRunStatus());
        run.getStatus().phase = phase;
        return run;
    }

    private static Optional<BenchmarkRun> of(BenchmarkRun run) {
        return Optional.of(run);
    }

    private static Optional<BenchmarkRun> none() {
        return Optional.empty();
    }

    private static Map<String, String> conditions(BenchmarkRunStatus status) {
        return status.conditions.stream()
                .collect(Collectors.toMap(Condition::getType, c -> c.getStatus() + "/" + c.getReason()));
    }

    private static Condition condition(BenchmarkRunStatus status, String type) {
        return status.conditions.stream()
                .filter(c -> type.equals(c.getType()))
                .findFirst()
                .orElseThrow();
    }
}
