package dev.llmops.serving.runner.workload;

import dev.llmops.serving.api.contract.RunnerFlags;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * The shape of multi-turn sessions ({@code --dataset sessions:TURNS,FIRST_TOKENS,TURN_TOKENS}) and how their users
 * pace them: each closed-loop stream is one user holding one conversation at a time, in words of about one token each.
 *
 * @param turns requests per conversation
 * @param firstTokens words of a conversation's first message (its context: a document, a code file, a task)
 * @param turnTokens words of each later user message
 * @param thinkTime the mean of the exponential pause between a reply and the user's next turn; zero for none
 * @param header the HTTP header that carries the conversation's id, for routers that keep a session on one replica
 */
public record SessionShape(int turns, int firstTokens, int turnTokens, Duration thinkTime, String header) {

    public static final int MAX_TOKENS = 131_072;
    /** Bounds one request: the first message, every later message and every reply of a conversation's last turn. */
    public static final long MAX_CONVERSATION_WORDS = 1 << 20;
    /** Bounds the histories all streams hold at once (about 7 bytes a word, and as much again in request bodies). */
    public static final long MAX_HELD_WORDS = 1 << 25;

    public static final Duration MAX_THINK_TIME = Duration.ofMinutes(10);
    /** Envoy's and most gateways' consistent-hash examples key on it; SGLang's gateway reads X-SMG-Routing-Key. */
    public static final String DEFAULT_HEADER = "X-Session-ID";

    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}");

    /** This shape as typed in {@code --dataset}, before its users' pace and routing header are known. */
    public static SessionShape of(int turns, int firstTokens, int turnTokens) {
        return new SessionShape(turns, firstTokens, turnTokens, Duration.ZERO, DEFAULT_HEADER);
    }

    /** This conversation shape, its users thinking {@code meanThinkTime} between turns, its id in {@code name}. */
    public SessionShape paced(Duration meanThinkTime, String name) {
        return new SessionShape(turns, firstTokens, turnTokens, meanThinkTime, name);
    }

    /**
     * What is wrong with this shape when each reply is {@code replyTokens} long and up to {@code streams} users hold a
     * conversation at once, or null when it can run.
     */
    public String problem(int replyTokens, int streams) {
        if (turns < 1 || turns > RunnerFlags.MAX_SESSION_TURNS) {
            return "has " + turns + " turns, outside 1 to " + RunnerFlags.MAX_SESSION_TURNS;
        }
        if (firstTokens < 1 || firstTokens > MAX_TOKENS || turnTokens < 1 || turnTokens > MAX_TOKENS) {
            return "has first and later message lengths " + firstTokens + " and " + turnTokens + ", outside 1 to "
                    + MAX_TOKENS;
        }
        long lastTurnWords = firstTokens + (long) (turns - 1) * (turnTokens + replyTokens);
        if (lastTurnWords > MAX_CONVERSATION_WORDS) {
            return "makes its last turn " + lastTurnWords + " words long with " + replyTokens
                    + "-token replies, more than " + MAX_CONVERSATION_WORDS;
        }
        if (lastTurnWords * streams > MAX_HELD_WORDS) {
            return "would hold up to " + lastTurnWords * streams + " words of history at once in " + streams
                    + " streams, more than " + MAX_HELD_WORDS + ": fewer streams or turns, or shorter messages";
        }
        if (thinkTime == null || thinkTime.isNegative() || thinkTime.compareTo(MAX_THINK_TIME) > 0) {
            return "has a think time of " + thinkTime + ", outside 0 to " + MAX_THINK_TIME.toMinutes() + " minutes";
        }
        if (header == null || !HEADER_NAME.matcher(header).matches()) {
            return "has the session header " + header + ", not an HTTP header name of at most 64 characters";
        }
        return null;
    }

    /** The conversations' shape as the workload digest records it; pace and routing leave the requests alone. */
    @Override
    public String toString() {
        return "sessions:" + turns + "," + firstTokens + "," + turnTokens;
    }
}
