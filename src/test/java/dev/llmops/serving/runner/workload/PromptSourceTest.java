package dev.llmops.serving.runner.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.runner.plan.BenchmarkConfig;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Each stage's requests: what each dataset makes of them, and that they depend on the seed and stage name only. */
class PromptSourceTest {

    private static BenchmarkConfig.Builder config() {
        return BenchmarkConfig.builder(URI.create("http://127.0.0.1:9"), "m").seed(7);
    }

    private static List<DatasetRequest> take(BenchmarkConfig config, String stage, int count) {
        PromptSource.StageRequests requests = new PromptSource(config).forStage(stage);
        List<DatasetRequest> taken = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            taken.add(requests.next());
        }
        return taken;
    }

    @Test
    void aStagesRequestsDependOnTheSeedAndItsNameOnly() {
        BenchmarkConfig random =
                config().dataset(Dataset.RANDOM).inputLength(6).outputLength(9).build();
        PromptSource source = new PromptSource(random);
        source.forStage("c1").next();
        source.forStage("c8").next();
        source.warmup();

        assertThat(take(random, "c8", 20)).as("what ran before").isEqualTo(take(source.forStage("c8")));
        assertThat(take(random, "c8", 20)).doesNotContainAnyElementsOf(take(random, "c16", 20));
        assertThat(take(random, "c8", 20))
                .doesNotContainAnyElementsOf(take(
                        config().seed(8)
                                .dataset(Dataset.RANDOM)
                                .inputLength(6)
                                .outputLength(9)
                                .build(),
                        "c8",
                        20));
        assertThat(take(random, "c8", 1).get(0)).satisfies(request -> {
            assertThat(request.prompt().split(" ")).hasSize(6);
            assertThat(request.maxTokens()).isEqualTo(9);
            assertThat(request.systemPrompt()).isNull();
        });
    }

    private static List<DatasetRequest> take(PromptSource.StageRequests requests) {
        List<DatasetRequest> taken = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            taken.add(requests.next());
        }
        return taken;
    }

    @Test
    void byDefaultEachRequestIsAFreshPromptOfADrawnLengthWithADrawnMaxTokensUnderTheCap() {
        BenchmarkConfig defaults = config().maxTokens(300).build();
        List<DatasetRequest> requests = take(defaults, "c8", 400);
        List<Integer> inputWords = requests.stream()
                .map(request -> request.prompt().split(" ").length)
                .toList();
        List<Integer> maxTokens =
                requests.stream().map(DatasetRequest::maxTokens).toList();

        assertThat(defaults.dataset()).isEqualTo(Dataset.RANDOM);
        assertThat(inputWords).allSatisfy(words -> assertThat(words).isBetween(512, 1536));
        assertThat(inputWords.stream().mapToInt(Integer::intValue).average().orElseThrow())
                .as("uniform around 1024")
                .isBetween(974.0, 1074.0);
        assertThat(new HashSet<>(inputWords).size()).as("lengths spread").isGreaterThan(200);
        assertThat(maxTokens).allSatisfy(tokens -> assertThat(tokens).isBetween(128, 300));
        assertThat(maxTokens).as("capped by max_tokens").contains(300);
        assertThat(maxTokens.stream().mapToInt(Integer::intValue).min().orElseThrow())
                .isLessThan(150);
        assertThat(requests.stream().map(DatasetRequest::prompt).distinct()).hasSize(requests.size());
        assertThat(requests.stream().map(DatasetRequest::systemPrompt)).containsOnlyNulls();
        assertThat(take(defaults, "c8", 400)).as("seeded").isEqualTo(requests);
    }

    @Test
    void aSessionsTurnsCarryItsWholeHistoryAndAreTheSameWhoeverSendsThem() {
        BenchmarkConfig sessions = config().dataset(Dataset.SESSIONS)
                .sessions(SessionShape.of(3, 40, 5).paced(Duration.ofSeconds(2), "X-Routing"))
                .outputLength(7)
                .build();
        PromptSource.StageRequests requests = new PromptSource(sessions).forStage("c4");
        PromptSource.Conversation first = requests.nextConversation();
        PromptSource.Conversation second = requests.nextConversation();
        List<DatasetRequest> turns = new ArrayList<>();
        while (first.hasNext()) {
            turns.add(first.next());
        }

        assertThat(turns).extracting(DatasetRequest::turn).containsExactly(1, 2, 3);
        assertThat(turns).extracting(DatasetRequest::index).containsExactly(0L, 1L, 2L);
        assertThat(turns.get(0).prompt().split(" ")).hasSize(40);
        assertThat(turns.get(1).prompt().split(" ")).hasSize(5);
        assertThat(turns.get(0).history()).isEmpty();
        assertThat(turns.get(2).history())
                .as("each earlier turn, its reply max_tokens words long")
                .hasSize(2)
                .satisfies(history -> {
                    assertThat(history.get(0).user()).isEqualTo(turns.get(0).prompt());
                    assertThat(history.get(1).user()).isEqualTo(turns.get(1).prompt());
                    assertThat(history.get(1).assistant().split(" ")).hasSize(7);
                });
        assertThat(turns.get(1).history()).isEqualTo(turns.get(2).history().subList(0, 1));
        assertThat(turns)
                .extracting(DatasetRequest::headers)
                .containsOnly(turns.get(0).headers());
        assertThat(turns.get(0).headers()).containsOnlyKeys("X-Routing");
        assertThat(second.next()).satisfies(turn -> {
            assertThat(turn.index()).as("the second session's first turn").isEqualTo(3);
            assertThat(turn.headers()).isNotEqualTo(turns.get(0).headers());
            assertThat(turn.prompt()).isNotEqualTo(turns.get(0).prompt());
        });
        PromptSource.StageRequests again = new PromptSource(sessions).forStage("c4");
        assertThat(again.nextConversation().next())
                .as("session 0 whichever stream takes it")
                .isEqualTo(turns.get(0));
        assertThat(first.thinkNanos()).isPositive();
        assertThat(first.thinkNanos()).isNotEqualTo(first.thinkNanos());
    }

    @Test
    void promptsRotateFromTheFirstInEveryStage() {
        BenchmarkConfig prompts = config().dataset(Dataset.PROMPTS)
                .prompts(List.of("a", "b", "c"))
                .maxTokens(5)
                .build();

        assertThat(take(prompts, "r2.5", 4))
                .containsExactly(
                        new DatasetRequest(null, "a", 5, 0),
                        new DatasetRequest(null, "b", 5, 1),
                        new DatasetRequest(null, "c", 5, 2),
                        new DatasetRequest(null, "a", 5, 3));
    }

    @Test
    void sharedPrefixRequestsAreAGroupsSystemPromptAndAUniqueQuestion() {
        BenchmarkConfig sharedPrefix = config().dataset(Dataset.SHARED_PREFIX)
                .sharedPrefix(new SharedPrefixShape(4, 300, 12))
                .outputLength(32)
                .build();

        List<DatasetRequest> requests = take(sharedPrefix, "c8", 200);

        Set<String> groups = new HashSet<>();
        requests.forEach(request -> groups.add(request.systemPrompt()));
        assertThat(groups).as("every group is used").hasSize(4);
        assertThat(groups).allSatisfy(prompt -> assertThat(prompt.split(" ")).hasSize(300));
        assertThat(requests).allSatisfy(request -> {
            assertThat(request.prompt().split(" ")).hasSize(12);
            assertThat(request.maxTokens()).isEqualTo(32);
        });
        assertThat(new HashSet<>(requests.stream().map(DatasetRequest::prompt).toList()))
                .as("unique questions")
                .hasSize(200);
        assertThat(IntStream.range(0, 196)
                        .filter(i -> !requests.get(i)
                                .systemPrompt()
                                .equals(requests.get(i + 4).systemPrompt())))
                .as("groups follow a seeded random order, not round-robin")
                .isNotEmpty();
        assertThat(take(sharedPrefix, "c16", 200))
                .as("another stage starts cold: its own system prompts")
                .noneMatch(request -> groups.contains(request.systemPrompt()));
        String warmup = new PromptSource(sharedPrefix).warmup();
        assertThat(warmup).startsWith("[warm-up ");
        assertThat(groups).noneMatch(group -> group.startsWith("["));
    }

    @Test
    void shareGptRequestsGoThroughEveryConversationInASeededOrderBeforeRepeating() throws IOException {
        ShareGptDataset dataset = ShareGptDataset.read(ShareGptDatasetTest.SAMPLE);
        BenchmarkConfig shareGpt = config().dataset(Dataset.SHAREGPT)
                .shareGpt(dataset)
                .maxTokens(20)
                .build();

        List<DatasetRequest> requests = take(shareGpt, "c4", 16);

        List<String> firstRound =
                requests.subList(0, 8).stream().map(DatasetRequest::prompt).toList();
        List<String> inFileOrder = new ArrayList<>();
        for (int i = 0; i < dataset.size(); i++) {
            inFileOrder.add(dataset.prompt(i));
        }
        assertThat(firstRound).containsExactlyInAnyOrderElementsOf(inFileOrder).isNotEqualTo(inFileOrder);
        assertThat(requests.subList(8, 16).stream().map(DatasetRequest::prompt))
                .containsExactlyInAnyOrderElementsOf(inFileOrder)
                .isNotEqualTo(firstRound);
        assertThat(requests).allSatisfy(request -> {
            int conversation = inFileOrder.indexOf(request.prompt());
            assertThat(request.maxTokens()).isEqualTo(Math.min(dataset.replyTokens(conversation), 20));
        });
        assertThat(take(
                        config().dataset(Dataset.SHAREGPT)
                                .shareGpt(dataset)
                                .outputLength(64)
                                .build(),
                        "c4",
                        16))
                .as("--output-len fixes max_tokens")
                .extracting(DatasetRequest::maxTokens)
                .containsOnly(64);
        assertThat(take(
                        config().seed(8)
                                .dataset(Dataset.SHAREGPT)
                                .shareGpt(dataset)
                                .build(),
                        "c4",
                        16))
                .isNotEqualTo(take(shareGpt, "c4", 16));
    }
}
