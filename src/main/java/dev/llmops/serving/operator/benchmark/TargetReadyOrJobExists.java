package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;

/**
 * The benchmark Job may exist once the target can be benchmarked; a Job that already exists is kept (and adopted after
 * a restart) whatever the target does afterwards, because deleting it would throw the measurement away.
 */
public class TargetReadyOrJobExists implements Condition<Job, BenchmarkRun> {

    @Override
    public boolean isMet(
            DependentResource<Job, BenchmarkRun> dependent, BenchmarkRun run, Context<BenchmarkRun> context) {
        return dependent.getSecondaryResource(run, context).isPresent()
                || context.managedWorkflowAndDependentResourceContext()
                        .getMandatory(BenchmarkJobDependent.Inputs.KEY, BenchmarkJobDependent.Inputs.class)
                        .target()
                        .ready();
    }
}
