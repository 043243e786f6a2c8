package dev.llmops.serving.operator.benchmark;

import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerStatus;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelSpec;
import io.fabric8.kubernetes.api.model.ContainerStateTerminatedBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Plays the parts the mock API server lacks: the CRDs (for status subresource semantics), the ModelServer controller
 * (status written directly), and the Job controller (the Job's pod and the Job's terminal condition).
 */
final class BenchmarkFixtures {

    static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final KubernetesClient client;

    BenchmarkFixtures(KubernetesClient client) {
        this.client = client;
    }

    void installCrds() throws IOException {
        for (String file :
                List.of("modelservers.serving.llmops.dev-v1.yml", "benchmarkruns.serving.llmops.dev-v1.yml")) {
            try (InputStream in = Files.newInputStream(Path.of("deploy/crds", file))) {
                CustomResourceDefinition crd =
                        client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
                if (client.apiextensions()
                                .v1()
                                .customResourceDefinitions()
                                .withName(crd.getMetadata().getName())
                                .get()
                        == null) {
                    client.resource(crd).create();
                }
            }
        }
    }

    ModelServer createModelServer(String namespace, String name) {
        return createModelServer(namespace, name, spec -> {});
    }

    ModelServer createModelServer(String namespace, String name, Consumer<ModelServerSpec> edit) {
        ModelServer server = new ModelServer();
        server.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        server.setSpec(new ModelServerSpec());
        server.getSpec().model = new ModelSpec();
        server.getSpec().model.path = "moonshotai/Kimi-K2-Instruct";
        server.getSpec().model.servedModelName = "kimi-k2";
        server.getSpec().accelerator.gpusPerReplica = 8;
        edit.accept(server.getSpec());
        return client.resource(server).create();
    }

    void editServerStatus(String namespace, String name, Consumer<ModelServerStatus> edit) {
        client.resources(ModelServer.class)
                .inNamespace(namespace)
                .withName(name)
                .editStatus(server -> {
                    if (server.getStatus() == null) {
                        server.setStatus(new ModelServerStatus());
                    }
                    edit.accept(server.getStatus());
                    return server;
                });
    }

    BenchmarkRun createRun(String namespace, String name, Consumer<BenchmarkRunSpec> spec) {
        BenchmarkRun run = new BenchmarkRun();
        run.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        run.setSpec(new BenchmarkRunSpec());
        run.getSpec().target = new BenchmarkTarget();
        run.getSpec().sweep.concurrency = List.of(8, 16);
        spec.accept(run.getSpec());
        return client.resource(run).create();
    }

    static Consumer<BenchmarkRunSpec> url(String url) {
        return spec -> {
            spec.target.url = url;
            spec.target.model = "kimi-k2";
        };
    }

    BenchmarkRun run(String namespace, String name) {
        return client.resources(BenchmarkRun.class)
                .inNamespace(namespace)
                .withName(name)
                .get();
    }

    /** The events recorded on the named object of the namespace. */
    List<Event> events(String namespace, String name) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName()))
                .toList();
    }

    BenchmarkRun awaitRun(String namespace, String name, Predicate<BenchmarkRun> condition) {
        return await().atMost(TIMEOUT)
                .until(() -> run(namespace, name), r -> r != null && r.getStatus() != null && condition.test(r));
    }

    Job awaitJob(String namespace, String runName) {
        String jobName = BenchmarkJobDependent.jobName(runName);
        return await().atMost(TIMEOUT)
                .until(
                        () -> client.batch()
                                .v1()
                                .jobs()
                                .inNamespace(namespace)
                                .withName(jobName)
                                .get(),
                        job -> job != null);
    }

    /** The name of the pod {@link #startJobPod} starts for the Job, known before it exists. */
    static String jobPodName(Job job) {
        return job.getMetadata().getName() + "-x7k2p";
    }

    /**
     * The Job controller's part: a running pod with the template's labels, the Job's name and its controller
     * reference, the Job counting it active.
     */
    Pod startJobPod(Job job) {
        return startPod(job, jobPodName(job), true);
    }

    /**
     * A running pod with the Job's template and labels, the Job counting it active; {@code controlled}: whether its
     * controller reference names the Job, as the Job controller's pods do (a co-tenant's copy has none).
     */
    Pod startPod(Job job, String podName, boolean controlled) {
        PodBuilder builder = new PodBuilder()
                .withNewMetadata()
                .withName(podName)
                .withNamespace(job.getMetadata().getNamespace())
                .addToLabels(job.getSpec().getTemplate().getMetadata().getLabels())
                .addToLabels("batch.kubernetes.io/job-name", job.getMetadata().getName())
                .endMetadata()
                .withSpec(job.getSpec().getTemplate().getSpec())
                .withNewStatus()
                .withPhase("Running")
                .addNewContainerStatus()
                .withName(BenchmarkJobDependent.CONTAINER)
                .withNewState()
                .withNewRunning()
                .withStartedAt(Instant.now().toString())
                .endRunning()
                .endState()
                .endContainerStatus()
                .endStatus();
        if (controlled) {
            builder.editMetadata()
                    .addNewOwnerReference()
                    .withApiVersion("batch/v1")
                    .withKind("Job")
                    .withName(job.getMetadata().getName())
                    .withUid(job.getMetadata().getUid())
                    .withController(true)
                    .endOwnerReference()
                    .endMetadata();
        }
        Pod pod = builder.build();
        Pod created = client.resource(pod).create();
        client.batch()
                .v1()
                .jobs()
                .inNamespace(job.getMetadata().getNamespace())
                .withName(job.getMetadata().getName())
                .editStatus(j -> {
                    j.setStatus(new JobStatusBuilder()
                            .withActive(1)
                            .withStartTime(Instant.now().toString())
                            .build());
                    return j;
                });
        return created;
    }

    /**
     * The pod's container ends with the exit code and termination message given, and the Job gets its terminal
     * condition.
     */
    void finishJob(Job job, Pod pod, int exitCode, String terminationMessage) {
        String namespace = job.getMetadata().getNamespace();
        client.pods()
                .inNamespace(namespace)
                .withName(pod.getMetadata().getName())
                .editStatus(p -> {
                    p.getStatus().setPhase(exitCode == 0 ? "Succeeded" : "Failed");
                    p.getStatus().getContainerStatuses().get(0).getState().setRunning(null);
                    p.getStatus()
                            .getContainerStatuses()
                            .get(0)
                            .getState()
                            .setTerminated(new ContainerStateTerminatedBuilder()
                                    .withExitCode(exitCode)
                                    .withMessage(terminationMessage)
                                    .withReason(exitCode == 0 ? "Completed" : "Error")
                                    .build());
                    return p;
                });
        client.batch()
                .v1()
                .jobs()
                .inNamespace(namespace)
                .withName(job.getMetadata().getName())
                .editStatus(j -> {
                    j.setStatus(new JobStatusBuilder()
                            .withSucceeded(exitCode == 0 ? 1 : 0)
                            .withFailed(exitCode == 0 ? 0 : 1)
                            .addToConditions(new JobConditionBuilder()
                                    .withType(exitCode == 0 ? "Complete" : "Failed")
                                    .withStatus("True")
                                    .withReason(exitCode == 0 ? null : "PodFailurePolicy")
                                    .withMessage(
                                            exitCode == 0
                                                    ? null
                                                    : "Container bench for pod "
                                                            + pod.getMetadata().getName() + " failed with exit code "
                                                            + exitCode + " matching FailJob rule at index 0")
                                    .build())
                            .build());
                    return j;
                });
    }
}
