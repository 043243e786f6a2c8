package dev.llmops.serving.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The prefix cache's bookkeeping: blocks of whole prefixes, hits only up to the first miss, LRU at its capacity. */
class PrefixCacheTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A prompt of {@code count} distinct words, w0 to w(count − 1), after {@code stem}. */
    private static PromptTokens words(String stem, int count, int blockTokens) {
        return PromptTokens.of(
                new TextNode(IntStream.range(0, count).mapToObj(i -> stem + i).collect(Collectors.joining(" "))),
                blockTokens);
    }

    private static PromptTokens chat(String system, String user) throws Exception {
        JsonNode messages = JSON.readTree("[{\"role\":\"system\",\"content\":" + JSON.writeValueAsString(system)
                + "},{\"role\":\"user\",\"content\":" + JSON.writeValueAsString(user) + "}]");
        return PromptTokens.of(messages, 4);
    }

    @Test
    void aPromptCountsItsWordsAndKeysEveryFullBlockBeforeItsLastToken() {
        assertThat(words("w", 12, 4).count()).isEqualTo(12);
        assertThat(words("w", 12, 4).blockKeys())
                .as("the last token is always computed")
                .hasSize(2);
        assertThat(words("w", 13, 4).blockKeys()).hasSize(3);
        assertThat(words("w", 4, 4).blockKeys()).isEmpty();
        assertThat(PromptTokens.of(new TextNode("  "), 4).count()).isZero();
    }

    @Test
    void aBlocksKeyDependsOnTheWholePrefixBeforeIt() {
        long[] plain = words("w", 9, 4).blockKeys();
        long[] changedFirstWord =
                PromptTokens.of(new TextNode("x0 w1 w2 w3 w4 w5 w6 w7 w8"), 4).blockKeys();

        assertThat(changedFirstWord[0]).isNotEqualTo(plain[0]);
        assertThat(changedFirstWord[1])
                .as("the second block's words are the same")
                .isNotEqualTo(plain[1]);
    }

    @Test
    void chatMessagesCountTheSystemPromptAndKeyTheRoles() throws Exception {
        PromptTokens asked = chat("one two three four five", "six seven eight nine");
        PromptTokens allUser = PromptTokens.of(
                JSON.readTree("[{\"role\":\"user\",\"content\":\"one two three four five six seven eight nine\"}]"), 4);

        assertThat(asked.count()).isEqualTo(9);
        assertThat(asked.blockKeys()).hasSize(2);
        assertThat(asked.blockKeys()[0])
                .isEqualTo(chat("one two three four five", "ten").blockKeys()[0]);
        assertThat(allUser.blockKeys()[0]).as("the same words in another role").isNotEqualTo(asked.blockKeys()[0]);
    }

    @Test
    void aRepeatedPromptHitsEveryBlockItLeftAndASharedPrefixOnlyItsCommonBlocks() {
        PrefixCache cache = new PrefixCache(4, 100);
        PromptTokens first = words("w", 17, 4);

        assertThat(cache.admit(first)).as("a cold cache").isZero();
        assertThat(cache.admit(first)).isEqualTo(16);
        assertThat(cache.admit(PromptTokens.of(
                        new TextNode("w0 w1 w2 w3 w4 w5 w6 w7 w8 DIFFERENT w10 w11 w12 w13 w14 w15 w16"), 4)))
                .as("blocks 0 and 1 are shared; block 2 differs, and with it every block after it")
                .isEqualTo(8);
    }

    @Test
    void aBlockHitsOnlyWhenEveryBlockBeforeItHit() {
        PrefixCache cache = new PrefixCache(4, 100);
        cache.admit(words("w", 13, 4));

        assertThat(cache.admit(PromptTokens.of(new TextNode("x w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12"), 4)))
                .as("a different first word misses every block, though the later blocks' words are the same")
                .isZero();
    }

    @Test
    void aPromptLongerThanTheCacheKeepsItsLeadingBlocks() {
        PrefixCache cache = new PrefixCache(4, 2);
        cache.admit(words("w", 13, 4));

        assertThat(cache.size())
                .as("three blocks into two: the last one is evicted")
                .isEqualTo(2);
        assertThat(cache.admit(words("w", 13, 4))).isEqualTo(8);
    }

    @Test
    void theLeastRecentlyUsedPromptIsEvictedAtCapacity() {
        PrefixCache cache = new PrefixCache(4, 4);
        PromptTokens a = words("a", 9, 4);
        PromptTokens b = words("b", 9, 4);
        PromptTokens c = words("c", 9, 4);
        cache.admit(a);
        cache.admit(b);
        cache.admit(a);

        cache.admit(c);

        assertThat(cache.size()).isEqualTo(4);
        assertThat(cache.admit(a)).as("used last before c, kept").isEqualTo(8);
        assertThat(cache.admit(b)).as("least recently used, evicted for c").isZero();
    }

    @Test
    void aSharedPrefixOutlivesTheBlocksThatFollowIt() {
        PrefixCache cache = new PrefixCache(4, 3);
        cache.admit(PromptTokens.of(new TextNode("p p p p a a a a end"), 4));
        cache.admit(PromptTokens.of(new TextNode("p p p p b b b b end"), 4));

        cache.admit(PromptTokens.of(new TextNode("q q q q c c c c end"), 4));

        assertThat(cache.admit(PromptTokens.of(new TextNode("p p p p d d d d end"), 4)))
                .as("the blocks after the shared prefix were evicted first, as a radix tree evicts leaves")
                .isEqualTo(4);
    }

    @Test
    void aCapacityOfZeroCachesNothing() {
        PrefixCache cache = new PrefixCache(4, 0);
        cache.admit(words("w", 17, 4));

        assertThat(cache.admit(words("w", 17, 4))).isZero();
        assertThat(cache.size()).isZero();
    }
}
