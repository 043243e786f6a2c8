package dev.llmops.serving.modelserver;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Pods on the mock API server, which runs no controllers: a server's pod with the owner chain the Deployment and
 * ReplicaSet controllers give it, and pods that only look like one.
 */
public final class ServerPods {

    private ServerPods() {}

    /**
     * A pod as the ReplicaSet controller creates it from the Deployment's template, with the given status: owned by the
     * ReplicaSet named like the pod without its last part (created, owned by the Deployment, unless it exists).
     */
    public static Pod runBy(KubernetesClient client, Deployment deployment, String name, PodBuilder withStatus) {
        String namespace = deployment.getMetadata().getNamespace();
        String replicaSetName = name.substring(0, name.lastIndexOf('-'));
        ReplicaSet existing = client.apps()
                .replicaSets()
                .inNamespace(namespace)
                .withName(replicaSetName)
                .get();
        ReplicaSet replicaSet = existing != null
                ? existing
                : client.apps()
                        .replicaSets()
                        .inNamespace(namespace)
                        .resource(new ReplicaSetBuilder()
                                .withNewMetadata()
                                .withName(replicaSetName)
                                .withNamespace(namespace)
                                .withLabels(deployment
                                        .getSpec()
                                        .getTemplate()
                                        .getMetadata()
                                        .getLabels())
                                .addToOwnerReferences(controller(deployment))
                                .endMetadata()
                                .withNewSpec()
                                .withReplicas(1)
                                .withSelector(deployment.getSpec().getSelector())
                                .withTemplate(deployment.getSpec().getTemplate())
                                .endSpec()
                                .build())
                        .create();
        return lookingLike(client, deployment, name, withStatus, controller(replicaSet));
    }

    /**
     * A pod with the labels and spec of the Deployment's template and the given status and owner references, as anyone
     * who can create pods in the namespace can make one.
     */
    public static Pod lookingLike(
            KubernetesClient client,
            Deployment deployment,
            String name,
            PodBuilder withStatus,
            OwnerReference... owners) {
        String namespace = deployment.getMetadata().getNamespace();
        Pod pod = withStatus
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .withLabels(deployment.getSpec().getTemplate().getMetadata().getLabels())
                .withOwnerReferences(owners)
                .endMetadata()
                .withSpec(deployment.getSpec().getTemplate().getSpec())
                .build();
        return client.pods().inNamespace(namespace).resource(pod).create();
    }

    /** A controller reference to {@code owner}, as its controller sets it on what it creates. */
    public static OwnerReference controller(HasMetadata owner) {
        return new OwnerReferenceBuilder()
                .withApiVersion(owner.getApiVersion())
                .withKind(owner.getKind())
                .withName(owner.getMetadata().getName())
                .withUid(owner.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }
}
