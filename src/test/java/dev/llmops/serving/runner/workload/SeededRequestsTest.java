package dev.llmops.serving.runner.workload;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmops.serving.api.contract.BenchmarkDefaults;
import dev.llmops.serving.runner.BenchmarkListener;
import dev.llmops.serving.runner.BenchmarkRunner;
import dev.llmops.serving.runner.output.BenchmarkReport;
import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.transport.CompletionRequest;
import dev.llmops.serving.runner.transport.Endpoint;
import dev.llmops.serving.runner.transport.OpenAiClient;
import dev.llmops.serving.simulator.SglangSimulator;
import dev.llmops.serving.simulator.SimulatedRequest;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two runs with one seed send identical requests, stage by stage, as the simulator received them (the SHA-256 of each
 * request body): the base of paired A/B comparisons.
 */
class SeededRequestsTest {

    private static final int WARMUP = 2;
    private static final int PER_STAGE = 9;
    private static OpenAiClient client;

    @BeforeAll
    static void createClient() {
        client = OpenAiClient.create();
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    static Stream<Arguments> datasets() throws Exception {
        ShareGptDataset shareGpt = ShareGptDataset.read(ShareGptDatasetTest.SAMPLE);
        return Stream.of(
                Arguments.of("random", (UnaryOperator<BenchmarkConfig.Builder>)
                        b -> b.dataset(Dataset.RANDOM).inputLength(5).outputLength(4)),
                Arguments.of("sharegpt", (UnaryOperator<BenchmarkConfig.Builder>)
                        b -> b.dataset(Dataset.SHAREGPT).shareGpt(shareGpt).maxTokens(6)),
                Arguments.of(
                        "shared-prefix", (UnaryOperator<BenchmarkConfig.Builder>) b -> b.dataset(Dataset.SHARED_PREFIX)
                                .sharedPrefix(new SharedPrefixShape(3, 40, 6))
                                .outputLength(4)));
    }

    /** The body digests the simulator received in each stage, in arrival order. */
    private static Map<String, List<String>> sent(BenchmarkConfig config) throws Exception {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .ttft(Duration.ofMillis(2))
                .tokenDelay(Duration.ofMillis(1))
                .start()) {
            BenchmarkConfig aimed = BenchmarkConfig.builder(simulator.baseUrl(), simulator.model())
                    .dataset(config.dataset())
                    .inputLength(config.inputLength())
                    .outputLength(config.outputLength())
                    .shareGpt(config.shareGpt())
                    .sharedPrefix(config.sharedPrefix())
                    .maxTokens(config.maxTokens())
                    .concurrency(config.concurrency())
                    .rates(config.rates())
                    .requestsPerLevel(PER_STAGE)
                    .singleRequests(false)
                    .warmupRequests(WARMUP)
                    .timeout(Duration.ofSeconds(20))
                    .seed(config.seed())
                    .build();
            BenchmarkReport report = new BenchmarkRunner(aimed, client, new BenchmarkListener() {}).run();
            // After the readiness check, warm-up requests (the burst, then arrivals at the first rate) are the ones
            // asking for the warm-up's max_tokens.
            List<SimulatedRequest> measured = simulator.requests().stream()
                    .sorted(Comparator.comparingLong(SimulatedRequest::receivedNanos))
                    .skip(1)
                    .filter(request -> request.maxTokens() != BenchmarkDefaults.WARMUP_MAX_TOKENS)
                    .toList();
            assertThat(measured).hasSize(PER_STAGE * report.stages().size());
            Map<String, List<String>> byStage = new LinkedHashMap<>();
            for (int i = 0; i < report.stages().size(); i++) {
                int from = i * PER_STAGE;
                byStage.put(
                        report.stages().get(i).name(),
                        measured.subList(from, from + PER_STAGE).stream()
                                .map(SimulatedRequest::bodySha256)
                                .toList());
            }
            return byStage;
        }
    }

    private static List<String> sorted(List<String> digests) {
        return digests.stream().sorted().toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("datasets")
    void oneSeedSendsIdenticalRequestsStageByStageWhateverRanBefore(
            String name, UnaryOperator<BenchmarkConfig.Builder> dataset) throws Exception {
        BenchmarkConfig.Builder base = BenchmarkConfig.builder(java.net.URI.create("http://unused"), "m");
        BenchmarkConfig full = dataset.apply(base)
                .concurrency(List.of(1, 3))
                .rates(List.of(40.0))
                .seed(7)
                .build();

        Map<String, List<String>> first = sent(full);
        Map<String, List<String>> second = sent(full);
        Map<String, List<String>> withoutC1 =
                sent(dataset.apply(BenchmarkConfig.builder(java.net.URI.create("http://unused"), "m"))
                        .concurrency(List.of(3))
                        .rates(List.of(40.0))
                        .seed(7)
                        .build());
        Map<String, List<String>> otherSeed =
                sent(dataset.apply(BenchmarkConfig.builder(java.net.URI.create("http://unused"), "m"))
                        .concurrency(List.of(1, 3))
                        .rates(List.of(40.0))
                        .seed(8)
                        .build());

        assertThat(first.keySet()).containsExactly("c1", "c3", "r40");
        assertThat(first.get("c1")).as("one at a time: the same order too").isEqualTo(second.get("c1"));
        for (String stage : List.of("c3", "r40")) {
            // Concurrent requests are issued in order but may arrive in another: compare them as sets.
            assertThat(sorted(first.get(stage))).as(stage).isEqualTo(sorted(second.get(stage)));
            assertThat(sorted(withoutC1.get(stage)))
                    .as(stage + " without c1 before it")
                    .isEqualTo(sorted(first.get(stage)));
            assertThat(sorted(otherSeed.get(stage)))
                    .as(stage + " with another seed")
                    .isNotEqualTo(sorted(first.get(stage)));
        }
        assertThat(otherSeed.get("c1")).isNotEqualTo(first.get("c1"));
    }

    @Test
    void aSharedPrefixRequestCarriesItsGroupsSystemPromptOnEitherEndpoint() throws Exception {
        CompletionRequest request = new DatasetRequest("alpha beta", "gamma delta", 7, 0)
                .applyTo(CompletionRequest.builder("http://127.0.0.1:9", "m").build());
        ObjectMapper json = new ObjectMapper();

        JsonNode chat = json.readTree(OpenAiClient.requestBody(request));
        JsonNode completions = json.readTree(OpenAiClient.requestBody(
                request.toBuilder().endpoint(Endpoint.COMPLETIONS).build()));

        assertThat(chat.get("messages"))
                .isEqualTo(json.readTree("[{\"role\":\"system\",\"content\":\"alpha beta\"},"
                        + "{\"role\":\"user\",\"content\":\"gamma delta\"}]"));
        assertThat(chat.get("max_tokens").asInt()).isEqualTo(7);
        assertThat(completions.get("prompt").asText()).isEqualTo("alpha beta\n\ngamma delta");
    }
}
