package dev.llmops.serving.operator.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.operator.compatibility.CompatibilityCheck;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VariantObjectsTest {

    private final ServingExperiment experiment = ExperimentFixtures.experiment();

    private ModelServerSpec overlay(String variant) {
        return VariantObjects.overlay(
                experiment, VariantObjects.variant(experiment, variant).orElseThrow());
    }

    @Test
    void aVariantWithANameOnlyServesTheServerAsItIs() {
        ModelServerSpec spec = overlay("autoregressive");

        assertThat(spec.speculativeDecoding).isNull();
        assertThat(spec.extraArgs).containsExactly("--attention-backend", "triton");
        assertThat(spec.model.path).isEqualTo("moonshotai/Kimi-K2.5");
        assertThat(spec.parallelism.tp).isEqualTo(8);
    }

    @Test
    void envMergesByNameAndResourcesFieldByField() {
        ModelServerSpec spec = overlay("dflash-b8");

        assertThat(spec.env)
                .extracting(EnvVar::getName, EnvVar::getValue)
                .containsExactly(tuple("SGLANG_LOG_LEVEL", "debug"), tuple("DFLASH_TRACE", "1"));
        assertThat(spec.resources.memory).isEqualTo("768Gi");
        assertThat(spec.resources.cpu).isEqualTo("32");
        assertThat(spec.speculativeDecoding.numDraftTokens).isEqualTo(8);
    }

    @Test
    void aListReplacesTheServersAndTheServerIsLeftUntouched() {
        assertThat(overlay("broken").extraArgs).containsExactly("--attention-backend", "trtllm_mla");
        assertThat(experiment.getSpec().server.extraArgs).containsExactly("--attention-backend", "triton");
        assertThat(experiment.getSpec().server.env).hasSize(1);
    }

    @Test
    void everyVariantMountsTheOneCacheClaimTheExperimentOwns() {
        ModelServerSpec spec = overlay("eagle3");

        assertThat(spec.modelCache.claimName).isEqualTo("kimi-model-cache");
        assertThat(spec.modelCache.size).isNull();
        assertThat(VariantObjects.modelCacheClaim(experiment)
                        .getSpec()
                        .getResources()
                        .getRequests()
                        .get("storage"))
                .hasToString("2Ti");
        assertThat(experiment.getSpec().server.modelCache.size).isEqualTo("2Ti");
    }

    @Test
    void anOverrideOfACompatibilityRuleOnTheExperimentReachesEveryVariantsServer() {
        experiment.getMetadata().setAnnotations(Map.of(CompatibilityCheck.ALLOW_ANNOTATION, "trtllm-mla-on-sm120"));

        assertThat(VariantObjects.servers(experiment)
                        .get("broken")
                        .getMetadata()
                        .getAnnotations())
                .containsExactly(Map.entry(CompatibilityCheck.ALLOW_ANNOTATION, "trtllm-mla-on-sm120"));
        assertThat(VariantObjects.servers(experiment).keySet())
                .containsExactly("autoregressive", "eagle3", "dflash-b8", "broken");
    }

    @Test
    void aRunBenchmarksItsVariantsServerPairedWithTheBaselinesRunAndIsLabelled() {
        BenchmarkRun run = VariantObjects.run(
                experiment,
                VariantObjects.variant(experiment, "eagle3").orElseThrow(),
                Optional.of("kimi-autoregressive"));

        assertThat(run.getMetadata().getName()).isEqualTo("kimi-eagle3");
        assertThat(run.getSpec().target.modelServer).isEqualTo("kimi-eagle3");
        assertThat(run.getSpec().baseline).isEqualTo("kimi-autoregressive");
        assertThat(run.getSpec().sweep.concurrency).containsExactly(8, 32);
        assertThat(run.getMetadata().getLabels())
                .containsEntry(Labels.EXPERIMENT, "kimi")
                .containsEntry(Labels.VARIANT, "eagle3");
    }
}
