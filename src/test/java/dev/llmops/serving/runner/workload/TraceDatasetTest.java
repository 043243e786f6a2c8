package dev.llmops.serving.runner.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading Mooncake-format traces, well-formed and hostile: what is kept, what is skipped, and in which order. */
public class TraceDatasetTest {

    /** Written by hack/traces/make-mooncake-trace.py with its defaults. */
    public static final Path SAMPLE = Path.of("src/test/resources/traces/conversations.jsonl");

    static TraceDataset read(String lines) throws IOException {
        return TraceDataset.read(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8)), "test.jsonl");
    }

    @Test
    void theGeneratedSampleHasConversationsThatRepeatTheirEarlierBlocks() throws IOException {
        TraceDataset trace = TraceDataset.read(SAMPLE);

        assertThat(trace.size()).isEqualTo(99);
        assertThat(trace.warnings()).isEmpty();
        List<TraceDataset.Request> requests = trace.requests();
        assertThat(requests).isSortedAccordingTo((a, b) -> Double.compare(a.timestampMillis(), b.timestampMillis()));
        assertThat(requests)
                .allSatisfy(request -> assertThat(request.hashIds())
                        .hasSize((request.inputLength() + TraceDataset.BLOCK_TOKENS - 1) / TraceDataset.BLOCK_TOKENS));
        assertThat(new TraceReplay(trace, List.of(1.0), 0, null).shape().repeatedBlockShare())
                .as("later turns repeat their conversation's blocks, half the conversations a system prompt")
                .isBetween(0.3, 0.9);
    }

    @Test
    void requestsAreKeptWithTheirLengthsAndBlocksAndPutInTimestampOrder() throws IOException {
        TraceDataset trace = read("""
                {"timestamp": 2000, "input_length": 600, "output_length": 20, "hash_ids": [1, 2]}
                {"timestamp": 500.5, "input_length": 100, "output_length": 10, "hash_ids": [1], "extra": {"a": [1]}}

                {"timestamp": 1000, "input_length": 1100, "output_length": 30}
                """);

        assertThat(trace.requests())
                .extracting(TraceDataset.Request::timestampMillis)
                .containsExactly(500.5, 1000.0, 2000.0);
        assertThat(trace.requests().get(0).hashIds()).containsExactly(1);
        assertThat(trace.requests().get(1).hashIds())
                .as("no hash ids: every block is the request's own")
                .isEmpty();
        assertThat(trace.requests().get(2).inputLength()).isEqualTo(600);
        assertThat(trace.requests().get(2).outputLength()).isEqualTo(20);
        assertThat(trace.warnings()).isEmpty();
    }

    @Test
    void hashIdsBeyondThePromptsLengthAreDropped() throws IOException {
        TraceDataset trace = read(
                "{\"timestamp\": 0, \"input_length\": 513, \"output_length\": 1," + " \"hash_ids\": [4, 5, 6, 7]}\n");

        assertThat(trace.requests().get(0).hashIds()).containsExactly(4, 5);
    }

    @Test
    void badLinesAreSkippedAndCountedByReason() throws IOException {
        TraceDataset trace =
                read("""
                {"timestamp": 0, "input_length": 10, "output_length": 5, "hash_ids": [1]}
                not json at all
                [1, 2, 3]
                {"input_length": 10, "output_length": 5}
                {"timestamp": -1, "input_length": 10, "output_length": 5}
                {"timestamp": 10, "input_length": 0, "output_length": 5}
                {"timestamp": 10, "input_length": 10, "output_length": 2000000}
                {"timestamp": 10, "input_length": "10", "output_length": 5}
                {"timestamp": 10, "input_length": 10, "output_length": 5, "hash_ids": ["a"]}
                {"timestamp": 10, "input_length": 10, "output_length": 5, "hash_ids": 3}
                {"timestamp": 10, "input_length": 10, "output_length": 5} trailing
                """ + "{\"timestamp\": 1, \"pad\": \"" + "x".repeat(TraceDataset.MAX_LINE_CHARS) + "\"}\n");

        assertThat(trace.size()).isOne();
        assertThat(trace.skipped())
                .containsEntry("not JSON", 2)
                .containsEntry("not a JSON object", 1)
                .containsEntry("no timestamp of 0 ms or more", 2)
                .containsEntry("no input_length and output_length from 1 to " + TraceDataset.MAX_LENGTH_TOKENS, 3)
                .containsEntry("hash_ids not a list of whole numbers", 2)
                .containsEntry("a line over " + TraceDataset.MAX_LINE_CHARS + " characters", 1);
        assertThat(trace.warnings())
                .singleElement()
                .asString()
                .startsWith("trace test.jsonl: 1 usable requests of 12 lines read; 11 skipped (");
    }

    @Test
    void aTraceWithoutAUsableRequestIsRefusedWithItsAccounting() {
        assertThatThrownBy(() -> read("{}\n{\"timestamp\": 1}\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("holds no usable trace request: 0 usable requests of 2 lines read; 2 skipped (1 no"
                        + " input_length and output_length from 1 to 1048576, 1 no timestamp of 0 ms or more)");
    }
}
