package dev.llmops.serving.simulator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The simulator's prefix cache, so prefix caching can be measured against known truth: a prompt's blocks of tokens
 * (see {@link PromptTokens}) at most {@code capacityBlocks} of them, evicted least recently used first. SGLang's radix
 * cache is token-granular; blocks, as in vLLM's paged KV cache, keep the bookkeeping small. A block hits only when
 * every block before it in the same prompt hit, since its key hashes the whole prefix. A prompt touches its blocks from
 * the last to the first, so a prefix's first blocks are its most recently used and its last ones go first, as a radix
 * tree evicts leaves before the nodes they hang from. Thread-safe; at most {@code capacityBlocks} keys in memory.
 */
final class PrefixCache {

    private final int blockTokens;
    private final Map<Long, Boolean> blocks;

    /** A cache of {@code capacityBlocks} blocks of {@code blockTokens} tokens; a capacity of 0 caches nothing. */
    PrefixCache(int blockTokens, int capacityBlocks) {
        this.blockTokens = blockTokens;
        this.blocks = new LinkedHashMap<>(Math.min(capacityBlocks, 1 << 16), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                return size() > capacityBlocks;
            }
        };
    }

    /**
     * Looks a prompt up and caches its blocks, as prefilling it would: returns its cached tokens, the blocks that hit
     * before the first miss times the block size.
     */
    synchronized int admit(PromptTokens prompt) {
        long[] keys = prompt.blockKeys();
        int hits = 0;
        while (hits < keys.length && blocks.containsKey(keys[hits])) {
            hits++;
        }
        for (int i = keys.length - 1; i >= 0; i--) {
            blocks.put(keys[i], Boolean.TRUE);
        }
        return hits * blockTokens;
    }

    /** Blocks held now. */
    synchronized int size() {
        return blocks.size();
    }
}
