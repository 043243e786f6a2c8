package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.operator.toolkit.Owners;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

/**
 * The headless Service of a sharded run's Job: it gives each runner pod a DNS name ({@code <job>-<index>.<job>}), by
 * which the shards find shard 0's rendezvous. Owned by the run; only a run with several shards has one.
 */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.BENCHMARK_JOBS))
public class ShardServiceDependent extends CRUDKubernetesDependentResource<Service, BenchmarkRun> {

    public ShardServiceDependent() {
        super(Service.class);
    }

    @Override
    protected ResourceID targetSecondaryResourceID(BenchmarkRun run, Context<BenchmarkRun> context) {
        return new ResourceID(
                BenchmarkJobDependent.jobName(run.getMetadata().getName()),
                run.getMetadata().getNamespace());
    }

    @Override
    protected Service desired(BenchmarkRun run, Context<BenchmarkRun> context) {
        String name = BenchmarkJobDependent.jobName(run.getMetadata().getName());
        return new ServiceBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(BenchmarkJobDependent.labels(name))
                .withOwnerReferences(Owners.controllerReference(run))
                .endMetadata()
                .withNewSpec()
                .withClusterIP("None")
                .withPublishNotReadyAddresses(true)
                .withSelector(BenchmarkJobDependent.labels(name))
                .addNewPort()
                .withName(RunnerArguments.RENDEZVOUS_PORT_NAME)
                .withPort(RunnerArguments.RENDEZVOUS_PORT)
                .withNewTargetPort(RunnerArguments.RENDEZVOUS_PORT)
                .withProtocol("TCP")
                .endPort()
                .endSpec()
                .build();
    }
}
