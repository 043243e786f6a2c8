package dev.llmops.serving.runner.workload;

/**
 * The shape of the shared-prefix workload ({@code --dataset shared-prefix:GROUPS,PREFIX_TOKENS,QUESTION_TOKENS}): how
 * many system prompts the requests share and how long prompts and questions are, in words of about one token each.
 */
public record SharedPrefixShape(int groups, int prefixTokens, int questionTokens) {

    public static final int MAX_GROUPS = 10_000;
    public static final int MAX_TOKENS = 131_072;
    /** Bounds the words generated per stage for the groups' system prompts. */
    public static final long MAX_PREFIX_WORDS = 1 << 21;

    /** What is wrong with this shape, or null when it can run. */
    public String problem() {
        if (groups < 1 || groups > MAX_GROUPS) {
            return "has " + groups + " groups, outside 1 to " + MAX_GROUPS;
        }
        if (prefixTokens < 1 || prefixTokens > MAX_TOKENS || questionTokens < 1 || questionTokens > MAX_TOKENS) {
            return "has prefix and question lengths " + prefixTokens + " and " + questionTokens + ", outside 1 to "
                    + MAX_TOKENS;
        }
        if ((long) groups * prefixTokens > MAX_PREFIX_WORDS) {
            return "asks for " + groups + " × " + prefixTokens + " prefix tokens, more than " + MAX_PREFIX_WORDS;
        }
        return null;
    }

    @Override
    public String toString() {
        return "shared-prefix:" + groups + "," + prefixTokens + "," + questionTokens;
    }
}
