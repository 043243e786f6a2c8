package dev.llmops.serving.simulator;

/**
 * The words of a simulated answer, one per token: a reasoning phase, then content. Greedy requests (temperature 0)
 * get words chosen by the prompt, the same on every simulator, as greedy decoding of one model gives the same text
 * for the same prompt; other requests get a fixed sentence. A broken draft model changes the text after its first
 * {@value #BROKEN_DRAFT_KEEPS} tokens, as an unverified draft would.
 */
final class SimulatedText {

    /** Tokens a broken draft keeps before every further one differs from the healthy answer. */
    static final int BROKEN_DRAFT_KEEPS = 2;

    private static final String[] CONTENT_WORDS = {
        " The",
        " answer",
        " depends",
        " on",
        " a",
        " few",
        " details",
        " worth",
        " checking",
        " carefully",
        ",",
        " especially",
        " throughput",
        " and",
        " latency",
        "."
    };
    private static final String[] REASONING_WORDS = {
        " Let",
        " me",
        " think",
        " about",
        " this",
        " step",
        " by",
        " step",
        ";",
        " first",
        " the",
        " question",
        " asks",
        " what",
        " happens",
        "."
    };
    /** Moves a broken draft's word to another one of the list, so every position after the kept ones differs. */
    private static final int BROKEN_SHIFT = 7;

    private final int reasoningTokens;
    private final Long promptSeed;
    private final boolean brokenDraft;

    /**
     * @param reasoningTokens the first tokens are reasoning
     * @param prompt the request's prompt (messages or prompt as JSON text) when greedy, else null
     * @param brokenDraft the text diverges after {@value #BROKEN_DRAFT_KEEPS} tokens
     */
    SimulatedText(int reasoningTokens, String prompt, boolean brokenDraft) {
        this.reasoningTokens = reasoningTokens;
        this.promptSeed = prompt == null ? null : fnv1a(prompt);
        this.brokenDraft = brokenDraft;
    }

    String word(int token) {
        if (token < reasoningTokens) {
            return REASONING_WORDS[shifted(token % REASONING_WORDS.length, token, REASONING_WORDS.length)];
        }
        int position = token - reasoningTokens;
        int word = promptSeed == null
                ? position % CONTENT_WORDS.length
                : (int) Math.floorMod(mix(promptSeed + position), (long) CONTENT_WORDS.length);
        return CONTENT_WORDS[shifted(word, token, CONTENT_WORDS.length)];
    }

    private int shifted(int word, int token, int words) {
        return brokenDraft && token >= BROKEN_DRAFT_KEEPS ? (word + BROKEN_SHIFT) % words : word;
    }

    private static long fnv1a(String text) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            hash = (hash ^ text.charAt(i)) * 0x100000001b3L;
        }
        return hash;
    }

    /** SplitMix64's finaliser: neighbouring positions get unrelated words. */
    private static long mix(long value) {
        long mixed = (value ^ (value >>> 30)) * 0xbf58476d1ce4e5b9L;
        mixed = (mixed ^ (mixed >>> 27)) * 0x94d049bb133111ebL;
        return mixed ^ (mixed >>> 31);
    }
}
