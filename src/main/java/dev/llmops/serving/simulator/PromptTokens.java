package dev.llmops.serving.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;

/**
 * A prompt as the simulator tokenizes it — one token per whitespace-separated word of the prompt, or of every message's
 * content, system prompt included — with the key of each full block of tokens for the {@link PrefixCache}: a hash of
 * the whole prompt up to the block's end (each message's role and boundary included), so a block's key matches only
 * after the same prefix. Only blocks that end before the prompt's last token get a key: a server always computes the
 * last token (its logits give the first output token), so it is never served from the cache.
 *
 * @param count the prompt's tokens, {@code usage.prompt_tokens}
 * @param blockKeys the key of each cacheable block, in prompt order
 */
record PromptTokens(int count, long[] blockKeys) {

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;
    private static final char WORD_END = '\u001f';
    private static final char MESSAGE_END = '\u001e';

    /** The tokens of {@code prompt} (a text, an array of texts, or chat messages), in blocks of {@code blockTokens}. */
    static PromptTokens of(JsonNode prompt, int blockTokens) {
        Tokenizer tokenizer = new Tokenizer(blockTokens);
        tokenizer.read(prompt);
        int cacheable = tokenizer.tokens == 0 ? 0 : (tokenizer.tokens - 1) / blockTokens;
        return new PromptTokens(tokenizer.tokens, Arrays.copyOf(tokenizer.keys, cacheable));
    }

    /** Walks the prompt word by word, hashing every character of the prefix read so far. */
    private static final class Tokenizer {
        private final int blockTokens;
        private long hash = FNV_OFFSET;
        private int tokens;
        private long[] keys = new long[16];
        private int blocks;

        Tokenizer(int blockTokens) {
            this.blockTokens = blockTokens;
        }

        void read(JsonNode node) {
            if (node.isTextual()) {
                words(node.asText());
                return;
            }
            for (JsonNode child : node) {
                if (child.isObject()) {
                    hash(child.path("role").asText());
                    read(child.path("content"));
                    hash(MESSAGE_END);
                } else {
                    read(child);
                }
            }
        }

        private void words(String text) {
            boolean inWord = false;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                boolean space = Character.isWhitespace(c);
                if (space && inWord) {
                    wordEnded();
                } else if (!space) {
                    hash(c);
                }
                inWord = !space;
            }
            if (inWord) {
                wordEnded();
            }
        }

        private void wordEnded() {
            hash(WORD_END);
            tokens++;
            if (tokens % blockTokens == 0) {
                if (blocks == keys.length) {
                    keys = Arrays.copyOf(keys, blocks * 2);
                }
                keys[blocks++] = hash;
            }
        }

        private void hash(String text) {
            for (int i = 0; i < text.length(); i++) {
                hash(text.charAt(i));
            }
        }

        private void hash(char c) {
            hash = (hash ^ c) * FNV_PRIME;
        }
    }
}
