package dev.llmops.serving.operator.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.ReferenceSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.RetentionGroup;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.RetentionSpec;
import dev.llmops.serving.operator.config.OperatorConfig;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which finished runs their retention deletes, and when; the reconciler's part is in RunRetentionReconcileTest. */
class RunRetentionTest {

    private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");

    @Test
    void aRunWithoutRetentionTakesTheOperatorsDefaultAndWithoutEitherIsKept() {
        BenchmarkRun run = run("a", "kimi", null, NOW);

        assertThat(RunRetention.policy(run, defaults(Optional.empty(), Optional.empty())))
                .isEmpty();
        RetentionSpec fromChart = RunRetention.policy(run, defaults(Optional.of(3600), Optional.of(50)))
                .orElseThrow();
        assertThat(fromChart.ttlSecondsAfterFinished).isEqualTo(3600);
        assertThat(fromChart.keepLast).isEqualTo(50);
        run.getSpec().retention = retention(60, null, RetentionGroup.Target);
        assertThat(RunRetention.policy(run, defaults(Optional.of(3600), Optional.of(50))))
                .contains(run.getSpec().retention);
        run.getMetadata().setLabels(Map.of(Labels.EXPERIMENT, "kimi"));
        assertThat(RunRetention.policy(run, defaults(Optional.of(3600), Optional.of(50))))
                .as("a run of an experiment goes with the experiment")
                .isEmpty();
    }

    @Test
    void theTimeToLiveCountsFromTheCompletionAndWakesTheRunWhenItEnds() {
        BenchmarkRun run = run("a", "kimi", null, NOW.minusSeconds(100));
        RetentionSpec policy = retention(160, null, RetentionGroup.Target);

        RunRetention.Decision early = RunRetention.decide(policy, run, List.of(run), List.of(), NOW);
        RunRetention.Decision late = RunRetention.decide(policy, run, List.of(run), List.of(), NOW.plusSeconds(60));

        assertThat(early.delete()).isFalse();
        assertThat(early.recheckAfter()).contains(Duration.ofSeconds(60));
        assertThat(early.status().expiresAt).isEqualTo("2026-12-07T12:01:00Z");
        assertThat(late.delete()).isTrue();
    }

    @Test
    void keepLastCountsOnlyNewerFinishedRunsOfTheSameGroupAndOrdersTiesByCreation() {
        RetentionSpec keepOne = retention(null, 1, RetentionGroup.Target);
        BenchmarkRun createdFirst = run("nightly-2", "kimi", null, NOW.minusSeconds(10));
        BenchmarkRun createdLastSameCompletion = run("nightly-1", "kimi", null, NOW.minusSeconds(10));
        createdLastSameCompletion
                .getMetadata()
                .setCreationTimestamp(NOW.minusSeconds(20).toString());
        BenchmarkRun running = run("nightly-3", "kimi", null, NOW);
        running.getStatus().phase = BenchmarkRunPhase.Running;
        BenchmarkRun otherTarget = run("qwen-1", "qwen", null, NOW);
        List<BenchmarkRun> all = List.of(createdFirst, createdLastSameCompletion, running, otherTarget);

        assertThat(RunRetention.decide(keepOne, createdFirst, all, List.of(), NOW)
                        .delete())
                .as("finished in the same second as nightly-1, created before it")
                .isTrue();
        assertThat(RunRetention.decide(keepOne, createdLastSameCompletion, all, List.of(), NOW)
                        .delete())
                .as("the newest finished run of kimi: the running one and qwen's do not count")
                .isFalse();
    }

    @Test
    void groupedByReferenceTheRunsOfOtherReferencesDoNotCount() {
        RetentionSpec keepOne = retention(null, 1, RetentionGroup.Reference);
        BenchmarkRun older = run("a", "kimi", "ref-1", NOW.minusSeconds(30));
        BenchmarkRun newerOtherReference = run("b", "kimi", "ref-2", NOW);
        BenchmarkRun newerSameReference = run("c", "qwen", "ref-1", NOW);

        assertThat(RunRetention.decide(keepOne, older, List.of(older, newerOtherReference), List.of(), NOW)
                        .delete())
                .isFalse();
        RunRetention.Decision decision =
                RunRetention.decide(keepOne, older, List.of(older, newerSameReference), List.of(), NOW);
        assertThat(decision.delete()).isTrue();
        assertThat(decision.reason()).isEqualTo("Expired: 1 newer runs of reference ref-1 have finished (keepLast 1).");
    }

    private static BenchmarkRun run(String name, String server, String reference, Instant completion) {
        BenchmarkRun run = new BenchmarkRun();
        run.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace("team")
                .withCreationTimestamp(completion.minusSeconds(300).toString())
                .build());
        run.setSpec(new BenchmarkRunSpec());
        run.getSpec().target = new BenchmarkTarget();
        run.getSpec().target.modelServer = server;
        if (reference != null) {
            run.getSpec().reference = new ReferenceSpec();
            run.getSpec().reference.name = reference;
        }
        run.setStatus(new BenchmarkRunStatus());
        run.getStatus().phase = BenchmarkRunPhase.Succeeded;
        run.getStatus().completionTime = completion.toString();
        return run;
    }

    private static RetentionSpec retention(Integer ttlSeconds, Integer keepLast, RetentionGroup groupBy) {
        RetentionSpec retention = new RetentionSpec();
        retention.ttlSecondsAfterFinished = ttlSeconds;
        retention.keepLast = keepLast;
        retention.groupBy = groupBy;
        return retention;
    }

    private static OperatorConfig.Benchmark.Retention defaults(Optional<Integer> ttl, Optional<Integer> keepLast) {
        return new OperatorConfig.Benchmark.Retention() {
            @Override
            public Optional<Integer> ttlSecondsAfterFinished() {
                return ttl;
            }

            @Override
            public Optional<Integer> keepLast() {
                return keepLast;
            }

            @Override
            public RetentionGroup groupBy() {
                return RetentionGroup.Target;
            }
        };
    }
}
