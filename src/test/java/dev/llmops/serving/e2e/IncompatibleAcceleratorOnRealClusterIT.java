package dev.llmops.serving.e2e;

import static dev.llmops.serving.e2e.support.ServingResources.awaitServer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.e2e.support.E2eTest;
import dev.llmops.serving.e2e.support.OperatorUnderTest;
import dev.llmops.serving.e2e.support.TestNamespace;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The published Kimi K2.5 DFlash recipe (trtllm_mla attention, fa4 draft attention) on the real API server: on RTX
 * PRO 6000 (SM120) it is Stalled naming both compatibility rules and nothing is created for it; the same spec on B200
 * gets its Deployment.
 */
@E2eTest
class IncompatibleAcceleratorOnRealClusterIT {

    private static final String ON_SM120 = "kimi-dflash-sm120";
    private static final String ON_B200 = "kimi-dflash-b200";

    @RegisterExtension
    static final OperatorUnderTest operator = OperatorUnderTest.installed().deletingServersBeforeStop(ON_B200);

    @Test
    void theRecipeOnSm120StallsNamingBothRulesBeforeAnyDeploymentExists(
            KubernetesClient client, TestNamespace namespace) {
        client.resource(recipe(ON_SM120, "computeMajor: 12"))
                .inNamespace(namespace.name())
                .create();

        ModelServer server = awaitServer(
                client,
                namespace,
                ON_SM120,
                s -> stalled(s) != null
                        && ConditionReasons.INCOMPATIBLE_WITH_ACCELERATOR.equals(
                                stalled(s).getReason()),
                "Stalled with reason IncompatibleWithAccelerator");

        assertThat(stalled(server).getStatus()).isEqualTo("True");
        assertThat(stalled(server).getMessage())
                .contains("trtllm-mla-on-sm120", "--attention-backend trtllm_mla")
                .contains("fa4-on-sm120", "--speculative-draft-attention-backend fa4")
                .contains("SM120", "fix: ", "https://github.com/sgl-project/sglang/issues/24633");
        assertThat(client.apps()
                        .deployments()
                        .inNamespace(namespace.name())
                        .withName(ON_SM120)
                        .get())
                .isNull();
        assertThat(client.services()
                        .inNamespace(namespace.name())
                        .withName(ON_SM120)
                        .get())
                .isNull();
    }

    @Test
    void theRecipeOnB200GetsItsDeployment(KubernetesClient client, TestNamespace namespace) {
        client.resource(recipe(ON_B200, "product: NVIDIA-B200"))
                .inNamespace(namespace.name())
                .create();

        await().atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> client.apps()
                                .deployments()
                                .inNamespace(namespace.name())
                                .withName(ON_B200)
                                .get(),
                        Objects::nonNull);
    }

    private static ModelServer recipe(String name, String accelerator) {
        return new KubernetesSerialization().unmarshal("""
                        apiVersion: serving.llmops.dev/v1alpha1
                        kind: ModelServer
                        metadata:
                          name: %s
                        spec:
                          model:
                            path: moonshotai/Kimi-K2.5
                          accelerator:
                            %s
                            gpusPerReplica: 8
                          parallelism:
                            tp: 8
                          speculativeDecoding:
                            algorithm: DFLASH
                            draftModelPath: z-lab/Kimi-K2.5-DFlash
                            numDraftTokens: 8
                          extraArgs:
                            - --attention-backend
                            - trtllm_mla
                            - --speculative-draft-attention-backend
                            - fa4
                          resources:
                            cpu: "4"
                            memory: 32Gi
                          sharedMemorySize: 1Gi
                        """.formatted(name, accelerator), ModelServer.class);
    }

    private static Condition stalled(ModelServer server) {
        return server.getStatus() == null || server.getStatus().conditions == null
                ? null
                : server.getStatus().conditions.stream()
                        .filter(c -> ConditionTypes.STALLED.equals(c.getType()))
                        .findFirst()
                        .orElse(null);
    }
}
