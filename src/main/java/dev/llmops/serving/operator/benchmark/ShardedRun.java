package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import io.fabric8.kubernetes.api.model.Service;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;

/** A run whose load several runner pods send needs the Service by which they find each other. */
public class ShardedRun implements Condition<Service, BenchmarkRun> {

    @Override
    public boolean isMet(
            DependentResource<Service, BenchmarkRun> dependent, BenchmarkRun run, Context<BenchmarkRun> context) {
        return run.getSpec().runner.shardCount() > 1;
    }
}
