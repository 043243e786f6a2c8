package dev.llmops.serving.runner.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading ShareGPT files, well-formed and hostile: what is kept, what is skipped and when reading stops. */
public class ShareGptDatasetTest {

    public static final Path SAMPLE = Path.of("src/test/resources/sharegpt-sample.json");

    private static ShareGptDataset read(String json) throws IOException {
        return ShareGptDataset.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "test.json");
    }

    private static List<String> prompts(ShareGptDataset dataset) {
        List<String> prompts = new ArrayList<>();
        for (int i = 0; i < dataset.size(); i++) {
            prompts.add(dataset.prompt(i));
        }
        return prompts;
    }

    private static String conversation(String prompt, String reply) {
        return "{\"conversations\":[{\"from\":\"human\",\"value\":\"" + prompt + "\"},{\"from\":\"gpt\",\"value\":\""
                + reply + "\"}]}";
    }

    @Test
    void theSampleGivesEachConversationsFirstUserTurnAndItsReplysLength() throws IOException {
        ShareGptDataset dataset = ShareGptDataset.read(SAMPLE);

        assertThat(dataset.size()).isEqualTo(8);
        assertThat(dataset.warnings()).isEmpty();
        assertThat(prompts(dataset))
                .startsWith(
                        "What is the tallest mountain in Europe?",
                        "Write a haiku about autumn rain.",
                        "Explain what a prefix cache does in an LLM server.",
                        "Translate 'good morning' into French.");
        String reply = "Mount Elbrus in the Caucasus, at 5,642 metres, is usually counted as the tallest mountain"
                + " in Europe.";
        assertThat(reply).hasSize(100);
        assertThat(dataset.replyTokens(0)).as("100 characters at 4 a token").isEqualTo(25);
        assertThat(dataset.replyTokens(4))
                .as("'101, 103 and 107.': 17 characters, rounded up")
                .isEqualTo(5);
        assertThat(dataset.replyTokens(3))
                .as("'Bonjour.' after the user turn, not the greeting before it")
                .isEqualTo(2);
    }

    @Test
    void malformedRecordsAreSkippedAndCountedByReason() throws IOException {
        ShareGptDataset dataset = read("["
                + conversation("kept one", "yes")
                + ", 42, \"text\", [], {\"id\": 1}"
                + ", {\"conversations\": \"not a list\"}"
                + ", {\"conversations\": [{\"from\": \"gpt\", \"value\": \"only a reply\"}]}"
                + ", {\"conversations\": [{\"from\": \"human\", \"value\": 17}, {\"from\": \"gpt\", \"value\": \"x\"}]}"
                + ", {\"conversations\": [{\"from\": \"human\", \"value\": \"   \"}]}"
                + ", {\"conversations\": [{\"from\": \"human\", \"value\": \"no answer\"}]}"
                + ", {\"conversations\": [{\"from\": \"human\", \"value\": \"bad reply\"}, {\"from\": \"gpt\"}]}"
                + ", {\"conversations\": [\"turn\", 3, {\"from\": [\"human\"], \"value\": \"x\"},"
                + " {\"role\": \"user\", \"content\": \"kept two\"}, {\"role\": \"assistant\", \"content\": \"\"}]}"
                + ", " + conversation("x".repeat(ShareGptDataset.MAX_PROMPT_CHARS + 1), "too long a prompt")
                + "]");

        assertThat(prompts(dataset)).containsExactly("kept one", "kept two");
        assertThat(dataset.replyTokens(1))
                .as("an empty reply still asks for one token")
                .isEqualTo(1);
        assertThat(dataset.skipped())
                .containsEntry("not an object with a conversations array", 5)
                .containsEntry("no user turn with text", 3)
                .containsEntry("no reply after the user turn", 2)
                .containsEntry("a prompt over 65536 characters", 1)
                .hasSize(4);
        assertThat(dataset.warnings())
                .containsExactly("dataset test.json: 2 usable conversations of 13 records read; 11 skipped"
                        + " (1 a prompt over 65536 characters, 2 no reply after the user turn, 3 no user turn with"
                        + " text, 5 not an object with a conversations array)");
    }

    @Test
    void aTruncatedFileKeepsTheConversationsBeforeTheCutAndSaysWhere() throws IOException {
        ShareGptDataset dataset = read("[" + conversation("one", "a") + ",\n" + conversation("two", "b") + ",\n"
                + "{\"conversations\": [{\"from\": \"human\", \"value\": \"thr");

        assertThat(prompts(dataset)).containsExactly("one", "two");
        assertThat(dataset.warnings())
                .singleElement()
                .asString()
                .contains("2 usable conversations of 3 records read; 1 skipped (1 cut short by the JSON error)")
                .contains("stopped reading at line 3");
    }

    @Test
    void aHugeStringStopsTheReadingWithoutBufferingItButOneNobodyReadsIsSkipped() throws IOException {
        String huge = "y".repeat(ShareGptDataset.MAX_STRING_CHARS + 10);
        ShareGptDataset dataset = read("[" + conversation("one", "a")
                + ", {\"id\": \"" + huge + "\", \"conversations\": [{\"from\": \"human\", \"value\": \"two\"},"
                + " {\"from\": \"gpt\", \"value\": \"b\"}, {\"from\": \"human\", \"value\": \"" + huge + "\"}]}"
                + ", " + conversation("three", huge)
                + ", " + conversation("four", "d") + "]");

        assertThat(prompts(dataset)).containsExactly("one", "two");
        assertThat(dataset.warnings())
                .singleElement()
                .asString()
                .contains("1 cut short by the JSON error")
                .contains("stopped reading at line 1")
                .contains("exceeds the maximum allowed (" + ShareGptDataset.MAX_STRING_CHARS);
    }

    @Test
    void deepNestingStopsTheReading() throws IOException {
        ShareGptDataset dataset =
                read("[" + conversation("one", "a") + ", {\"x\": " + "[".repeat(1000) + "]".repeat(1000) + "}]");

        assertThat(prompts(dataset)).containsExactly("one");
        assertThat(dataset.warnings()).singleElement().asString().contains("nesting depth");
    }

    @Test
    void atMostOneHundredThousandConversationsAreKept() throws IOException {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i <= ShareGptDataset.MAX_CONVERSATIONS; i++) {
            json.append(i == 0 ? "" : ",").append(conversation("q" + i, "a"));
        }
        ShareGptDataset dataset = read(json.append("]").toString());

        assertThat(dataset.size()).isEqualTo(ShareGptDataset.MAX_CONVERSATIONS);
        assertThat(dataset.prompt(ShareGptDataset.MAX_CONVERSATIONS - 1)).isEqualTo("q99999");
        assertThat(dataset.warnings()).singleElement().asString().contains("kept the first 100000");
    }

    @Test
    void aFileWithoutUsableConversationsFailsSayingWhy() {
        assertThatThrownBy(() -> read("{\"conversations\": []}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("is not a JSON array of ShareGPT conversations");
        assertThatThrownBy(() -> read("not json"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("is not JSON: ");
        assertThatThrownBy(() -> read("[{\"conversations\": [{\"from\": \"gpt\", \"value\": \"hi\"}]}, 3]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("holds no usable conversation: 0 usable conversations of 2 records read; 2 skipped"
                        + " (1 no user turn with text, 1 not an object with a conversations array)");
        assertThatThrownBy(() -> read("["))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holds no usable conversation");
    }
}
