package dev.llmops.serving.runner.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.runner.plan.BenchmarkConfig;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A trace's window, its send times at each speed, and the prompts made of its blocks. */
class TraceReplayTest {

    private static final String TRACE = """
            {"timestamp": 1000, "input_length": 1024, "output_length": 7, "hash_ids": [10, 11]}
            {"timestamp": 3000, "input_length": 1300, "output_length": 9, "hash_ids": [10, 11, 12]}
            {"timestamp": 6000, "input_length": 700, "output_length": 5000, "hash_ids": [20, 11]}
            {"timestamp": 11000, "input_length": 40, "output_length": 3}
            """;

    @Test
    void theWindowKeepsTheRequestsFromItsStartToItsEndAfterTheFirstRequest() throws IOException {
        TraceDataset trace = TraceDatasetTest.read(TRACE);

        TraceReplay all = new TraceReplay(trace, List.of(1.0), 0, null);
        TraceReplay middle = new TraceReplay(trace, List.of(1.0), 2, 6.0);

        assertThat(all.requests()).hasSize(4);
        assertThat(all.spanSeconds()).isEqualTo(10);
        assertThat(all.rate(1)).isEqualTo(0.4);
        assertThat(middle.requests())
                .extracting(TraceDataset.Request::timestampMillis)
                .containsExactly(3000.0, 6000.0);
        assertThat(middle.spanSeconds()).isEqualTo(4);
        assertThat(new TraceReplay(trace, List.of(1.0), 2, 5.0).requests())
                .as("the end is not in the window")
                .hasSize(1);
        assertThat(new TraceReplay(trace, List.of(1.0), 20, null).problem())
                .isEqualTo("has no request in its window of 20 to the end s");
    }

    @Test
    void sendTimesAreTheTimestampsFromTheWindowsStartDividedByTheSpeed() throws IOException {
        TraceReplay replay = new TraceReplay(TraceDatasetTest.read(TRACE), List.of(1.0, 4.0), 1, null);

        assertThat(replay.requests()).hasSize(3);
        assertThat(List.of(replay.offsetNanos(0, 1), replay.offsetNanos(1, 1), replay.offsetNanos(2, 1)))
                .containsExactly(1_000_000_000L, 4_000_000_000L, 9_000_000_000L);
        assertThat(List.of(replay.offsetNanos(0, 4), replay.offsetNanos(1, 4), replay.offsetNanos(2, 4)))
                .containsExactly(250_000_000L, 1_000_000_000L, 2_250_000_000L);
        assertThat(replay.rate(4)).as("3 requests in 9 s at 4x").isEqualTo(1.333);
    }

    @Test
    void speedsAndWindowsOutsideTheirRangesAreProblems() throws IOException {
        TraceDataset trace = TraceDatasetTest.read(TRACE);

        assertThat(new TraceReplay(trace, List.of(), 0, null).problem()).isEqualTo("needs at least one speed");
        assertThat(new TraceReplay(trace, List.of(0.0), 0, null).problem()).isEqualTo("has a speed outside (0, 1000]");
        assertThat(new TraceReplay(trace, List.of(2.0, 2.0), 0, null).problem()).isEqualTo("repeats a speed");
        assertThat(new TraceReplay(trace, List.of(1.0), 5, 5.0).problem())
                .isEqualTo("has a window that is not FROM,TO seconds with 0 <= FROM < TO");
        assertThat(new TraceReplay(trace, List.of(1.0, 2.5), 0, 60.0).problem()).isNull();
    }

    @Test
    void theShapeCountsTheBlocksAnEarlierRequestAlreadyNamed() throws IOException {
        TraceReplay.Shape shape = new TraceReplay(TraceDatasetTest.read(TRACE), List.of(1.0), 0, null).shape();

        assertThat(shape.requests()).isEqualTo(4);
        assertThat(shape.repeatedBlockShare())
                .as("10, 11 and 11 again of 7 blocks")
                .isEqualTo(0.4286);
        assertThat(shape.inputTokens()).isEqualTo(new TraceReplay.Lengths(700, 1300, 1300));
        assertThat(shape.outputTokens()).isEqualTo(new TraceReplay.Lengths(7, 5000, 5000));
    }

    @Test
    void equalHashIdsAreEqualTextAndEveryOtherBlockDiffers() throws IOException {
        BenchmarkConfig config = BenchmarkConfig.builder(URI.create("http://127.0.0.1:9"), "m")
                .dataset(Dataset.TRACE)
                .trace(new TraceReplay(TraceDatasetTest.read(TRACE), List.of(1.0), 0, null))
                .maxTokens(100)
                .build();
        List<DatasetRequest> requests = take(new PromptSource(config).forStage("t1x"), 4);

        List<List<String>> blocks =
                requests.stream().map(r -> blocks(r.prompt())).toList();
        assertThat(requests).extracting(r -> words(r.prompt())).containsExactly(1024, 1300, 700, 40);
        assertThat(requests).extracting(DatasetRequest::maxTokens).containsExactly(7, 9, 100, 3);
        assertThat(blocks.get(1).subList(0, 2)).as("10, 11").isEqualTo(blocks.get(0));
        assertThat(blocks.get(2).get(1))
                .as("11, truncated to the prompt's 188 last words")
                .isEqualTo(String.join(
                        " ", Arrays.asList(blocks.get(0).get(1).split(" ")).subList(0, 188)));
        List<String> distinct = List.of(
                blocks.get(0).get(0),
                blocks.get(0).get(1),
                blocks.get(1).get(2),
                blocks.get(2).get(0),
                blocks.get(3).get(0));
        assertThat(distinct).as("10, 11, 12, 20 and the last request's own").doesNotHaveDuplicates();
        assertThat(take(new PromptSource(config).forStage("t1x"), 4))
                .as("seeded")
                .isEqualTo(requests);
        assertThat(blocks(
                        take(new PromptSource(config).forStage("t2x"), 1).get(0).prompt()))
                .as("another stage's blocks: no stage warms a cache for the next")
                .doesNotContainAnyElementsOf(blocks.get(0));
    }

    private static List<DatasetRequest> take(PromptSource.StageRequests requests, int count) {
        List<DatasetRequest> taken = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            taken.add(requests.next());
        }
        return taken;
    }

    private static int words(String prompt) {
        return prompt.split(" ").length;
    }

    /** The prompt cut into blocks of {@value TraceDataset#BLOCK_TOKENS} words. */
    private static List<String> blocks(String prompt) {
        List<String> words = Arrays.asList(prompt.split(" "));
        List<String> blocks = new ArrayList<>();
        for (int start = 0; start < words.size(); start += TraceDataset.BLOCK_TOKENS) {
            blocks.add(String.join(
                    " ", words.subList(start, Math.min(words.size(), start + TraceDataset.BLOCK_TOKENS))));
        }
        return blocks;
    }
}
