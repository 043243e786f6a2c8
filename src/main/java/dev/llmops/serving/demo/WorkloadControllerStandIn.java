package dev.llmops.serving.demo;

import dev.llmops.serving.operator.toolkit.Owners;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Plays the Deployment, ReplicaSet and Job controllers on an API server that has none (the embedded one): gives each
 * Deployment a ReplicaSet for its current template and creates pods from it (so a pod's owner chain is pod →
 * ReplicaSet → Deployment, as the operator checks), creates pods from Job templates, rolls a Deployment whose template
 * changed to a new ReplicaSet at once, and reports Deployment and Job status from the pods. A real control plane does
 * all of this itself; the embedded API collects the garbage, as a real one's controller manager does.
 */
public final class WorkloadControllerStandIn implements AutoCloseable {

    static final String TEMPLATE_HASH = "pod-template-hash";
    static final String JOB_NAME = "batch.kubernetes.io/job-name";

    private static final Logger LOG = Logger.getLogger(WorkloadControllerStandIn.class);

    private final KubernetesClient client;
    private volatile boolean closed;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "workload-controller-stand-in");
        thread.setDaemon(true);
        return thread;
    });

    public WorkloadControllerStandIn(KubernetesClient client) {
        this.client = client;
    }

    public WorkloadControllerStandIn start() {
        loop.scheduleWithFixedDelay(this::syncSafely, 0, 250, TimeUnit.MILLISECONDS);
        return this;
    }

    private void syncSafely() {
        try {
            List<Pod> pods = client.pods().inAnyNamespace().list().getItems();
            List<ReplicaSet> replicaSets =
                    client.apps().replicaSets().inAnyNamespace().list().getItems();
            List<Deployment> deployments =
                    client.apps().deployments().inAnyNamespace().list().getItems();
            List<Job> jobs = client.batch().v1().jobs().inAnyNamespace().list().getItems();
            deployments.forEach(d -> syncDeployment(d, ownedBy(replicaSets, d), pods));
            jobs.forEach(j -> syncJob(j, ownedBy(pods, j)));
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.warnf(e, "workload stand-in: %s", e.getMessage());
            }
        }
    }

    private void syncDeployment(Deployment deployment, List<ReplicaSet> replicaSets, List<Pod> pods) {
        String hash = Integer.toHexString(deployment.getSpec().getTemplate().hashCode());
        int desired = deployment.getSpec().getReplicas() == null
                ? 1
                : deployment.getSpec().getReplicas();
        ReplicaSet replicaSet = replicaSets.stream()
                .filter(r -> hash.equals(r.getMetadata().getLabels().get(TEMPLATE_HASH)))
                .findFirst()
                .orElseGet(() -> createReplicaSet(deployment, hash, desired));
        replicaSets.stream().filter(r -> r != replicaSet).forEach(old -> {
            ownedBy(pods, old).forEach(this::delete);
            delete(old);
        });
        List<Pod> current = ownedBy(pods, replicaSet);
        current.stream().skip(desired).forEach(this::delete);
        for (int i = current.size(); i < desired; i++) {
            create(
                    replicaSet,
                    replicaSet.getSpec().getTemplate(),
                    replicaSet.getMetadata().getName() + "-" + suffix(),
                    Map.of());
        }
        int ready = (int) current.stream()
                .limit(desired)
                .filter(WorkloadControllerStandIn::isReady)
                .count();
        int shown = Math.min(current.size(), desired);
        client.apps()
                .deployments()
                .inNamespace(deployment.getMetadata().getNamespace())
                .withName(deployment.getMetadata().getName())
                .editStatus(d -> {
                    d.setStatus(new io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder()
                            .withObservedGeneration(d.getMetadata().getGeneration())
                            .withReplicas(shown)
                            .withUpdatedReplicas(shown)
                            .withReadyReplicas(ready)
                            .withAvailableReplicas(ready)
                            .withUnavailableReplicas(desired - ready)
                            .build());
                    return d;
                });
    }

    private void syncJob(Job job, List<Pod> pods) {
        if (job.getStatus() != null && job.getStatus().getCompletionTime() != null
                || job.getStatus() != null
                        && job.getStatus().getFailed() != null
                        && job.getStatus().getFailed() > 0) {
            return;
        }
        if (pods.isEmpty()) {
            Map<String, String> labels = new LinkedHashMap<>();
            labels.put(JOB_NAME, job.getMetadata().getName());
            labels.put("job-name", job.getMetadata().getName());
            labels.put("controller-uid", job.getMetadata().getUid());
            create(job, job.getSpec().getTemplate(), job.getMetadata().getName() + "-" + suffix(), labels);
            setJobStatus(job, 1, 0, 0, null);
            return;
        }
        String phase =
                pods.get(0).getStatus() == null ? null : pods.get(0).getStatus().getPhase();
        if ("Succeeded".equals(phase)) {
            setJobStatus(job, 0, 1, 0, "Complete");
        } else if ("Failed".equals(phase)) {
            setJobStatus(job, 0, 0, 1, "Failed");
        }
    }

    private void setJobStatus(Job job, int active, int succeeded, int failed, String finished) {
        String now = now();
        client.batch()
                .v1()
                .jobs()
                .inNamespace(job.getMetadata().getNamespace())
                .withName(job.getMetadata().getName())
                .editStatus(j -> {
                    var status = new io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder(
                                    j.getStatus() == null
                                            ? new io.fabric8.kubernetes.api.model.batch.v1.JobStatus()
                                            : j.getStatus())
                            .withActive(active)
                            .withSucceeded(succeeded)
                            .withFailed(failed);
                    if (j.getStatus() == null || j.getStatus().getStartTime() == null) {
                        status.withStartTime(now);
                    }
                    if (finished != null) {
                        status.addToConditions(new JobConditionBuilder()
                                .withType(finished)
                                .withStatus("True")
                                .withReason("Complete".equals(finished) ? "CompletionsReached" : "BackoffLimitExceeded")
                                .withLastTransitionTime(now)
                                .withLastProbeTime(now)
                                .build());
                        if ("Complete".equals(finished)) {
                            status.withCompletionTime(now);
                        }
                    }
                    j.setStatus(status.build());
                    return j;
                });
    }

    /** The ReplicaSet of the Deployment's current template, labelled with its hash as the real controller does. */
    private ReplicaSet createReplicaSet(Deployment deployment, String hash, int replicas) {
        PodTemplateSpec template = new PodTemplateSpecBuilder(
                        deployment.getSpec().getTemplate())
                .editOrNewMetadata()
                .addToLabels(TEMPLATE_HASH, hash)
                .endMetadata()
                .build();
        ReplicaSet replicaSet = new ReplicaSetBuilder()
                .withNewMetadata()
                .withName(deployment.getMetadata().getName() + "-" + hash)
                .withNamespace(deployment.getMetadata().getNamespace())
                .withLabels(template.getMetadata().getLabels())
                .withOwnerReferences(Owners.controllerReference(deployment))
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .withNewSelector()
                .withMatchLabels(template.getMetadata().getLabels())
                .endSelector()
                .withTemplate(template)
                .endSpec()
                .build();
        return client.apps()
                .replicaSets()
                .inNamespace(deployment.getMetadata().getNamespace())
                .resource(replicaSet)
                .create();
    }

    private void create(HasMetadata owner, PodTemplateSpec template, String name, Map<String, String> extraLabels) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (template.getMetadata() != null && template.getMetadata().getLabels() != null) {
            labels.putAll(template.getMetadata().getLabels());
        }
        labels.putAll(extraLabels);
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(owner.getMetadata().getNamespace())
                .withLabels(labels)
                .withAnnotations(
                        template.getMetadata() == null
                                ? null
                                : template.getMetadata().getAnnotations())
                .withOwnerReferences(Owners.controllerReference(owner))
                .endMetadata()
                .withSpec(template.getSpec())
                .withNewStatus()
                .withPhase("Pending")
                .endStatus()
                .build();
        client.pods()
                .inNamespace(owner.getMetadata().getNamespace())
                .resource(pod)
                .create();
    }

    private static <T extends HasMetadata> List<T> ownedBy(List<T> objects, HasMetadata owner) {
        return objects.stream()
                .filter(p -> p.getMetadata().getOwnerReferences().stream()
                        .anyMatch(o -> owner.getMetadata().getUid().equals(o.getUid())))
                .toList();
    }

    static boolean isReady(Pod pod) {
        return pod.getStatus() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private void delete(HasMetadata object) {
        client.resource(object).delete();
    }

    private static String suffix() {
        return Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36, 36L * 36 * 36 * 36 * 36), 36);
    }

    static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    @Override
    public void close() {
        closed = true;
        loop.shutdownNow();
    }
}
