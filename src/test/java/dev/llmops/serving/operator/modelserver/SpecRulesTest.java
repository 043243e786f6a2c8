package dev.llmops.serving.operator.modelserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Spec mistakes the schema cannot catch, and how the image tag decides the CUDA driver a node needs. */
class SpecRulesTest {

    @Test
    void theShippedExamplesAreValid() {
        for (String example : List.of(
                "kimi-k2-rtx-pro-6000-eagle3.yaml",
                "kimi-k2-rtx-pro-6000-autoregressive.yaml",
                "small-model-b200.yaml")) {
            assertThat(SpecValidator.validate(
                            TestModelServers.example(example, "llm").getSpec()))
                    .as(example)
                    .isEmpty();
        }
    }

    @Test
    void extraArgsThatRepeatADerivedFlagNameTheFieldToSetInstead() {
        ModelServer server = TestModelServers.example("small-model-b200.yaml", "llm");
        server.getSpec().extraArgs = List.of("--reasoning-parser", "qwen3", "--port", "8000", "--tp=2");

        assertThat(SpecValidator.validate(server.getSpec()))
                .extracting(SpecValidator.Problem::reason, SpecValidator.Problem::field)
                .containsExactly(
                        tuple("ExtraArgsRepeatDerivedFlag", "spec.extraArgs[2]"),
                        tuple("ExtraArgsRepeatDerivedFlag", "spec.extraArgs[4]"));
        assertThat(SpecValidator.validate(server.getSpec()).get(1).message())
                .contains("--tp")
                .contains("spec.parallelism.tp");
    }

    @Test
    void anApiKeyInExtraArgsPointsToTheSecretField() {
        ModelServer server = TestModelServers.example("small-model-b200.yaml", "llm");
        server.getSpec().extraArgs = List.of("--api-key", "sk-1");

        assertThat(SpecValidator.validate(server.getSpec())).singleElement().satisfies(problem -> {
            assertThat(problem.field()).isEqualTo("spec.extraArgs[0]");
            assertThat(problem.message()).contains("spec.apiKeySecret").doesNotContain("sk-1");
        });
    }

    @Test
    void remoteCodeWithoutAPinnedRevisionNamesTheRevisionField() {
        ModelServer server = TestModelServers.example("kimi-k2-rtx-pro-6000-autoregressive.yaml", "llm");
        server.getSpec().model.revision = null;

        assertThat(SpecValidator.validate(server.getSpec())).singleElement().satisfies(problem -> {
            assertThat(problem.reason()).isEqualTo("RemoteCodeRevisionMissing");
            assertThat(problem.field()).isEqualTo("spec.model.revision");
            assertThat(problem.message()).contains("spec.model.trustRemoteCode is true");
        });
    }

    @Test
    void tensorParallelismBeyondTheReplicasGpusIsRejected() {
        ModelServer server = TestModelServers.example("small-model-b200.yaml", "llm");
        server.getSpec().parallelism.tp = 2;

        assertThat(SpecValidator.validate(server.getSpec())).singleElement().satisfies(problem -> {
            assertThat(problem.reason()).isEqualTo("TensorParallelExceedsGpus");
            assertThat(problem.message()).contains("spec.parallelism.tp=2").contains("gpusPerReplica is 1");
        });
    }

    @Test
    void aNodeSelectorForAnotherGpuFamilyConflictsWithTheAccelerator() {
        ModelServer server = TestModelServers.example("small-model-b200.yaml", "llm");
        server.getSpec().scheduling.nodeSelector = Map.of("nvidia.com/gpu.family", "hopper", "pool", "a");

        assertThat(SpecValidator.validate(server.getSpec())).singleElement().satisfies(problem -> {
            assertThat(problem.reason()).isEqualTo("NodeSelectorConflictsWithAccelerator");
            assertThat(problem.message())
                    .contains("nvidia.com/gpu.family=hopper")
                    .contains("spec.accelerator.family")
                    .contains("blackwell");
        });
    }

    @Test
    void anAffinityTermExcludingTheProductConflictsWithTheAccelerator() {
        ModelServer server = TestModelServers.example("small-model-b200.yaml", "llm");
        server.getSpec().scheduling.affinity = new AffinityBuilder()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm()
                .withMatchExpressions(
                        new NodeSelectorRequirement("nvidia.com/gpu.product", "NotIn", List.of("NVIDIA-B200")))
                .endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .build();

        assertThat(SpecValidator.validate(server.getSpec()))
                .extracting(SpecValidator.Problem::reason)
                .containsExactly("AffinityConflictsWithAccelerator");
    }

    @ParameterizedTest
    @CsvSource({
        "lmsysorg/sglang:v0.5.18-cu130, true",
        "lmsysorg/sglang:latest-cu130, true",
        "lmsysorg/sglang:v0.5.11, true",
        "lmsysorg/sglang:v0.6.0-runtime, true",
        "lmsysorg/sglang:latest, true",
        "lmsysorg/sglang, true",
        "docker.io/lmsysorg/sglang:v0.5.10, false",
        "lmsysorg/sglang:v0.5.19-cu129, false",
        "lmsysorg/sglang:v0.4.9, false",
        "registry.example/team/sglang:custom-cu130, true",
        "registry.example/team/sglang:v0.5.18, false",
        "registry.example:5000/sglang, false",
        "lmsysorg/sglang@sha256:0123abcd, true"
    })
    void cuda13IsReadFromTheImageTag(String image, boolean cuda13) {
        assertThat(SglangImage.isCuda13(image)).isEqualTo(cuda13);
    }
}
