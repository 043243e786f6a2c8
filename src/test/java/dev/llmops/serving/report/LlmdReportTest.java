package dev.llmops.serving.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.InputFormat;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.cli.Cli;
import dev.llmops.serving.cli.ReportCommand;
import dev.llmops.serving.llmd.LlmdReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every llm-d benchmark report the report command writes passes llm-d-benchmark's JSON Schema for version 0.2 and the
 * unit rules of its models, and carries the run's figures in the units the schema names.
 */
class LlmdReportTest {

    /** Saved by demo --save, unchanged: spec, metadata and status as the demo's API held them. */
    static final Path DEMO_SAVED = Path.of("src/test/resources/report/demo-saved-eagle3.yaml");

    private static final Path RATE_RUN = ReportTest.RATES;
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonSchemaFactory SCHEMAS = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private static final JsonSchema REPORT_SCHEMA = schema("src/test/resources/llmd/br_v0_2_json_schema.json");
    private static final JsonSchema UNITS_SCHEMA = schema("src/test/resources/llmd/br_v0_2_units.json");

    @TempDir
    Path dir;

    static Stream<Path> runs() {
        return Stream.of(
                DEMO_SAVED,
                RATE_RUN,
                ReportTest.CANDIDATE,
                ReportTest.BASELINE,
                PairedReportTest.PAIRED,
                UnfinishedRunReportTest.DEMO_CANDIDATE,
                UnfinishedRunReportTest.DEMO_BASELINE,
                ReportTest.SESSIONS);
    }

    @ParameterizedTest
    @MethodSource("runs")
    void everyStageOfARunIsOneValidReport(Path file) throws IOException {
        BenchmarkRun run = new RunLoader().load(Files.readString(file), file.toString());

        List<JsonNode> reports = llmd("--file", file.toString());

        assertThat(reports).hasSize(run.getStatus().stages.size());
        for (JsonNode report : reports) {
            assertThat(violations(report)).as(report.toPrettyString()).isEmpty();
        }
    }

    @Test
    void theSavedDemoRunCarriesItsFiguresInTheSchemasUnits() throws IOException {
        BenchmarkRun run = new RunLoader().load(Files.readString(DEMO_SAVED), DEMO_SAVED.toString());
        StageResult c8 = Stages.named(run, "c8").orElseThrow();

        List<JsonNode> reports = llmd("--file", DEMO_SAVED.toString());

        JsonNode report = reports.get(run.getStatus().stages.indexOf(c8));
        assertThat(report.path("version").isTextual()).isTrue();
        assertThat(report.path("version").asText()).isEqualTo("0.2");
        JsonNode latency = report.at("/results/request_performance/aggregate/latency");
        assertThat(latency.at("/time_to_first_token/units").asText()).isEqualTo("ms");
        assertThat(latency.at("/time_to_first_token/p50").asDouble()).isEqualTo(c8.ttftMillis.p50);
        assertThat(latency.at("/time_per_output_token/units").asText()).isEqualTo("ms/token");
        assertThat(latency.at("/time_per_output_token/p99").asDouble()).isEqualTo(c8.tpotMillis.p99);
        assertThat(latency.at("/inter_token_latency/p90").asDouble()).isEqualTo(c8.itlMillis.p90);
        assertThat(latency.at("/request_latency/max").asDouble()).isEqualTo(c8.e2eMillis.max);
        JsonNode aggregate = report.at("/results/request_performance/aggregate");
        assertThat(aggregate.at("/requests/total").asInt()).isEqualTo(c8.completed + c8.failed);
        assertThat(aggregate.at("/throughput/output_token_rate/units").asText()).isEqualTo("tokens/s");
        assertThat(aggregate.at("/throughput/output_token_rate/mean").asDouble())
                .isEqualTo(c8.outputTokensPerSecond);
        assertThat(aggregate.at("/throughput/request_rate/units").asText()).isEqualTo("queries/s");
        JsonNode load = report.at("/scenario/load/standardized");
        assertThat(load.path("concurrency").asInt()).isEqualTo(8);
        assertThat(load.has("rate_qps")).isFalse();
        assertThat(load.path("stage").asInt()).isEqualTo(run.getStatus().stages.indexOf(c8));
        assertThat(report.at("/scenario/load/native/args/temperature").asDouble())
                .isEqualTo(run.getSpec().sampling.temperature);
        JsonNode server = report.at("/scenario/stack/0/standardized");
        assertThat(server.path("tool").asText()).isEqualTo("sglang");
        assertThat(server.path("tool_version").asText()).isEqualTo(run.getStatus().provenance.image);
        assertThat(server.at("/model/name").asText()).isEqualTo(run.getStatus().provenance.model);
        assertThat(report.at("/scenario/stack/0/native/args/--speculative-algorithm")
                        .asText())
                .isEqualTo("EAGLE3");
        assertThat(report.at("/run/description").asText()).isEqualTo("qwen3-8b [demo/eagle3]");
        assertThat(reports)
                .as("one experiment, a report id of its own per stage")
                .extracting(r -> r.at("/run/eid").asText())
                .containsOnly(reports.get(0).at("/run/eid").asText());
        assertThat(reports).extracting(r -> r.at("/run/uid").asText()).doesNotHaveDuplicates();
    }

    @Test
    void aRateStageOfAFixedLengthDatasetSaysSo() throws IOException {
        List<JsonNode> reports = llmd("--file", RATE_RUN.toString());

        JsonNode load = reports.get(1).at("/scenario/load/standardized");
        assertThat(load.path("rate_qps").asDouble()).isEqualTo(4.0);
        assertThat(load.has("concurrency"))
                .as("a rate stage's in-flight cap is no concurrency")
                .isFalse();
        assertThat(load.path("source").asText()).isEqualTo("random");
        assertThat(load.at("/input_seq_len/distribution").asText()).isEqualTo("fixed");
        assertThat(load.at("/input_seq_len/value").asInt()).isEqualTo(512);
        assertThat(load.at("/output_seq_len/value").asInt()).isEqualTo(128);
        assertThat(reports.get(1).at("/scenario/load/native/args/arrival").asText())
                .isEqualTo("Poisson");
        assertThat(reports.get(1).has("scenario")
                        && reports.get(1).at("/scenario/stack").isMissingNode())
                .as("a URL target's engine is unknown")
                .isTrue();
        JsonNode single = reports.get(0).at("/scenario/load/standardized");
        assertThat(single.at("/input_seq_len/distribution").asText())
                .as("the single-request prompts, measured")
                .isEqualTo("other");
        assertThat(single.at("/input_seq_len/value").asDouble()).isEqualTo(40.0);
    }

    @Test
    void aSessionsRunIsMultiTurnAndCarriesTheServersCacheHitRateAsItsComponentsObservability() throws IOException {
        BenchmarkRun run = new RunLoader().load(Files.readString(ReportTest.SESSIONS), ReportTest.SESSIONS.toString());

        List<JsonNode> reports = llmd("--file", ReportTest.SESSIONS.toString());

        assertThat(reports).hasSize(2);
        for (int index = 0; index < reports.size(); index++) {
            JsonNode report = reports.get(index);
            StageResult stage = run.getStatus().stages.get(index);
            JsonNode multiTurn = report.at("/scenario/load/standardized/multi_turn");
            assertThat(multiTurn.path("enabled").asBoolean()).isTrue();
            assertThat(multiTurn.at("/max_turns/distribution").asText()).isEqualTo("fixed");
            assertThat(multiTurn.at("/max_turns/value").asInt()).isEqualTo(4);
            JsonNode components = report.at("/results/observability/components");
            assertThat(components).hasSize(1);
            assertThat(components.get(0).path("component_label").asText())
                    .isEqualTo(report.at("/scenario/stack/0/metadata/label").asText())
                    .isEqualTo("qwen3-8b");
            JsonNode hitRate = components.get(0).at("/aggregate/cache_hit_rate");
            assertThat(hitRate.path("units").asText()).isEqualTo("percent");
            assertThat(hitRate.path("mean").asDouble()).isCloseTo(stage.cacheHitRate * 100, within(1e-9));
        }
        assertThat(reports.get(0)
                        .at("/results/observability/components/0/aggregate/cache_hit_rate/mean")
                        .asDouble())
                .isEqualTo(71.2);
        ObjectNode hitRate =
                (ObjectNode) reports.get(1).at("/results/observability/components/0/aggregate/cache_hit_rate");
        hitRate.put("units", "ms");
        assertThat(violations(reports.get(1))).as("a hit rate is a portion").isNotEmpty();
    }

    @Test
    void withoutTheServersCountersTheCachedPromptShareIsTheCacheHitRate() throws IOException {
        BenchmarkRun run = new RunLoader().load(Files.readString(ReportTest.SESSIONS), ReportTest.SESSIONS.toString());
        run.getStatus().stages.forEach(stage -> stage.cacheHitRate = null);

        Map<String, Object> c16 = LlmdReport.render(run).get(1).report();

        JsonNode report = JSON.valueToTree(c16);
        assertThat(violations(report)).isEmpty();
        assertThat(report.at("/results/observability/components/0/aggregate/cache_hit_rate/mean")
                        .asDouble())
                .isEqualTo(66.1);
    }

    @Test
    void aUrlTargetHasNoComponentToHoldTheCacheHitRate() throws IOException {
        BenchmarkRun run = new RunLoader().load(Files.readString(ReportTest.SESSIONS), ReportTest.SESSIONS.toString());
        run.getSpec().target.modelServer = null;
        run.getSpec().target.url = "http://sglang.example:30000";

        List<LlmdReport.Stage> reports = LlmdReport.render(run);

        assertThat(reports).isNotEmpty().allSatisfy(stage -> {
            JsonNode report = JSON.valueToTree(stage.report());
            assertThat(report.at("/scenario/stack").isMissingNode()).isTrue();
            assertThat(report.at("/results/observability").isMissingNode()).isTrue();
            assertThat(report.at("/scenario/load/standardized/multi_turn/max_turns/value")
                            .asInt())
                    .isEqualTo(4);
        });
        assertThat(llmd("--file", RATE_RUN.toString()))
                .allSatisfy(
                        report -> assertThat(report.at("/results/observability").isMissingNode())
                                .isTrue());
    }

    @Test
    void theValidatorRejectsAWrongUnitAndAMissingRequiredField() throws IOException {
        ObjectNode report = (ObjectNode) llmd("--file", DEMO_SAVED.toString()).get(1);
        assertThat(violations(report)).isEmpty();

        ObjectNode ttft = (ObjectNode) report.at("/results/request_performance/aggregate/latency/time_to_first_token");
        ttft.put("units", "ms/token");
        assertThat(violations(report)).isNotEmpty();
        ttft.put("units", "ms");
        ttft.remove("mean");
        assertThat(violations(report)).isNotEmpty();
    }

    @Test
    void anOutputFileBecomesOneFilePerStage() throws IOException {
        Path output = dir.resolve("eagle3.yaml");

        Cli.Run run = Cli.run("report", "--format", "llmd", "--file", DEMO_SAVED.toString(), "-o", output.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEmpty();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder(
                            "eagle3_0_single.yaml",
                            "eagle3_1_c8.yaml",
                            "eagle3_2_c16.yaml",
                            "eagle3_3_c32.yaml",
                            "eagle3_4_c48.yaml",
                            "eagle3_5_c64.yaml");
        }
        JsonNode c8 = YAML.readTree(dir.resolve("eagle3_1_c8.yaml").toFile());
        assertThat(violations(c8)).isEmpty();
        assertThat(c8.at("/scenario/load/standardized/concurrency").asInt()).isEqualTo(8);
    }

    @Test
    void aStageNameFromTheStatusCannotLeaveTheOutputDirectory() {
        Path output = dir.resolve("run.yaml");

        assertThat(ReportCommand.perStage(output, 2, "../../etc/passwd"))
                .isEqualTo(dir.resolve("run_2_.._.._etc_passwd.yaml"));
    }

    @Test
    void aRunWithoutAFinishedStageHasNoReport() {
        Cli.Run run = Cli.run("report", "--format", "llmd", "--file", UnfinishedRunReportTest.FAILED.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("has no finished stage");
        assertThat(run.out()).isEmpty();
    }

    private static List<JsonNode> llmd(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("report", "--format", "llmd"));
        command.addAll(List.of(args));
        Cli.Run run = Cli.run(command.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.err()).isZero();
        return YAML.readerFor(JsonNode.class).<JsonNode>readValues(run.out()).readAll();
    }

    private static List<ValidationMessage> violations(JsonNode report) throws IOException {
        String json = JSON.writeValueAsString(report);
        List<ValidationMessage> errors = new ArrayList<>(REPORT_SCHEMA.validate(json, InputFormat.JSON));
        errors.addAll(UNITS_SCHEMA.validate(json, InputFormat.JSON));
        return errors;
    }

    private static JsonSchema schema(String file) {
        try {
            return SCHEMAS.getSchema(Files.readString(Path.of(file)), InputFormat.JSON);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
