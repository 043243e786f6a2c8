package dev.llmops.serving.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code validate} as a user or a GitOps pipeline runs it on manifests before applying them. */
class ValidateCommandTest {

    private static final String RECIPE = "src/test/resources/manifests/compatibility/kimi-dflash-rtx-pro-6000.yaml";

    @Test
    void theKimiDflashRecipeOnRtxPro6000BreaksBothRulesWithTheirFixes() {
        Cli.Run run = Cli.run("validate", RECIPE);

        assertThat(run.exitCode()).isEqualTo(ValidateCommand.RULE_BROKEN);
        assertThat(run.out())
                .contains("ModelServer kimi-k2-dflash: breaks 2 compatibility rules")
                .contains("trtllm-mla-on-sm120: spec.extraArgs --attention-backend trtllm_mla on SM120")
                .contains("fa4-on-sm120: spec.extraArgs --speculative-draft-attention-backend fa4 on SM120")
                .contains("    fix: --attention-backend triton")
                .contains("    source: https://github.com/sgl-project/sglang/issues/15342")
                .contains("ConfigMap notes: neither a ModelServer nor a ServingExperiment, passed over");
    }

    @Test
    void theShippedExamplesBreakNoRule() throws IOException {
        List<String> command = new ArrayList<>(List.of("validate"));
        try (Stream<Path> examples = Files.list(Path.of("deploy/examples"))) {
            examples.filter(f -> f.toString().endsWith(".yaml")).sorted().forEach(f -> command.add(f.toString()));
        }

        Cli.Run run = Cli.run(command.toArray(String[]::new));

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("ModelServer kimi-k2-eagle3: no compatibility rule broken");
    }

    @Test
    void eachVariantOfAnExperimentIsCheckedAsTheServerItWouldDeploy(@TempDir Path dir) throws IOException {
        Path experiment = dir.resolve("experiment.yaml");
        Files.writeString(experiment, """
                apiVersion: serving.llmops.dev/v1alpha1
                kind: ServingExperiment
                metadata:
                  name: kimi
                spec:
                  server:
                    model:
                      path: moonshotai/Kimi-K2.5
                    accelerator:
                      computeMajor: 12
                      gpusPerReplica: 8
                    parallelism:
                      tp: 8
                    extraArgs: ["--attention-backend", "triton"]
                  variants:
                    - name: autoregressive
                    - name: dflash-recipe
                      speculativeDecoding:
                        algorithm: DFLASH
                        draftModelPath: z-lab/Kimi-K2.5-DFlash
                      extraArgs: ["--attention-backend", "trtllm_mla"]
                """);

        Cli.Run run = Cli.run("validate", experiment.toString());

        assertThat(run.exitCode()).isEqualTo(ValidateCommand.RULE_BROKEN);
        assertThat(run.out())
                .contains("ServingExperiment kimi variant autoregressive: no compatibility rule broken")
                .contains("ServingExperiment kimi variant dflash-recipe: breaks 1 compatibility rule")
                .contains("trtllm-mla-on-sm120: spec.extraArgs --attention-backend trtllm_mla on SM120");
    }

    @Test
    void theOverrideAnnotationIsHonouredAndSaid(@TempDir Path dir) throws IOException {
        Path allowed = dir.resolve("allowed.yaml");
        Files.writeString(
                allowed,
                Files.readString(Path.of(RECIPE))
                        .replace(
                                "  name: kimi-k2-dflash\n",
                                "  name: kimi-k2-dflash\n  annotations:\n"
                                        + "    serving.llmops.dev/allow-incompatible: fa4-on-sm120\n"));

        Cli.Run run = Cli.run("validate", allowed.toString());

        assertThat(run.exitCode()).isEqualTo(ValidateCommand.RULE_BROKEN);
        assertThat(run.out())
                .contains("breaks 1 compatibility rule (allowed by serving.llmops.dev/allow-incompatible: "
                        + "fa4-on-sm120)")
                .contains("trtllm-mla-on-sm120:")
                .doesNotContain("  fa4-on-sm120:");
    }

    @Test
    void inputThatIsNotYamlExitsTwoNamingTheFile(@TempDir Path dir) throws IOException {
        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, "kind: ModelServer\n  spec: [unclosed\n");

        Cli.Run run = Cli.run("validate", broken.toString(), RECIPE);

        assertThat(run.exitCode()).isEqualTo(ValidateCommand.UNREADABLE);
        assertThat(run.err()).contains(broken.toString()).contains("not YAML or JSON");
        assertThat(run.out()).contains("kimi-k2-dflash: breaks 2 compatibility rules");
    }

    @Test
    void aFileLargerThanTheBoundIsNotRead(@TempDir Path dir) throws IOException {
        Path huge = dir.resolve("huge.yaml");
        Files.writeString(huge, "# " + "x".repeat((int) ValidateCommand.MAX_FILE_BYTES) + "\n");

        Cli.Run run = Cli.run("validate", huge.toString());

        assertThat(run.exitCode()).isEqualTo(ValidateCommand.UNREADABLE);
        assertThat(run.err()).contains("larger than 4 MiB");
    }
}
