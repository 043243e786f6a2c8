package dev.llmops.serving.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.operator.benchmark.SweepLevels;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The baseline example says it spells out every default of a benchmark: it must, field for field. */
class BaselineExampleTest {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    @Test
    void theBaselineExampleSpellsOutEveryBenchmarkDefault() throws IOException {
        String yaml = Files.readString(Path.of("deploy/examples/benchmark-autoregressive-baseline.yaml"));
        ObjectNode example = (ObjectNode) SERIALIZATION.convertValue(
                SERIALIZATION.unmarshal(yaml, BenchmarkRun.class).getSpec(), JsonNode.class);
        ObjectNode raw =
                (ObjectNode) SERIALIZATION.unmarshal(yaml, JsonNode.class).get("spec");
        ObjectNode defaults = (ObjectNode) SERIALIZATION.convertValue(new BenchmarkRunSpec(), JsonNode.class);
        defaults.remove("runner");
        // The schema leaves the levels unset, so that a rate sweep has none; the operator then runs these.
        ((ObjectNode) defaults.get("sweep"))
                .set(
                        "concurrency",
                        SERIALIZATION.convertValue(SweepLevels.concurrency(new BenchmarkRunSpec()), JsonNode.class));

        defaults.fieldNames().forEachRemaining(field -> {
            assertThat(raw.has(field)).as("spec.%s is spelled out", field).isTrue();
            assertThat(example.get(field)).as("spec.%s", field).isEqualTo(defaults.get(field));
        });
        raw.fieldNames()
                .forEachRemaining(
                        field -> assertThat(defaults.has(field) || field.equals("target") || field.equals("slo"))
                                .as("spec.%s is a default or the target or SLO", field)
                                .isTrue());
    }
}
