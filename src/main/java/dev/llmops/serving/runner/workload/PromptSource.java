package dev.llmops.serving.runner.workload;

import dev.llmops.serving.api.contract.RunnerFlags;
import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.shard.Shard;
import dev.llmops.serving.runner.transport.Exchange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The requests of each measured stage and, separately, the warm-up prompts.
 *
 * <p>A stage's requests, in the order they are issued, are a pure function of the seed, the dataset and the stage's
 * name: two runs with one seed send identical requests stage by stage, whatever ran before and however long it took.
 * Warm-up prompts start with a tag no measured prompt has (and carry no system prompt), so a prefix cache warmed by
 * them cannot flatter the measured TTFT.
 */
public final class PromptSource {

    /** Common English words, each a single token in the usual tokenizers: one word is about one token. */
    private static final String[] WORDS = ("time person year way day thing man world life hand part child eye woman "
                    + "place work week case point government company number group problem fact river mountain engine "
                    + "garden window letter market picture question answer system program theory signal memory network "
                    + "music paper winter summer forest ocean island bridge castle rocket planet silver copper glass "
                    + "stone cloud storm light shadow energy matter motion pressure balance measure pattern surface")
            .split(" ");

    private final BenchmarkConfig config;
    private final String runTag;
    private final AtomicLong warmups = new AtomicLong();

    public PromptSource(BenchmarkConfig config) {
        this.config = config;
        this.runTag = Long.toHexString(new Random(config.seed() ^ System.nanoTime()).nextLong());
    }

    /** The requests of the stage named {@code stageName}, from its first. */
    public StageRequests forStage(String stageName) {
        return new StageRequests(config, stageSeed(config.seed(), stageName));
    }

    /** A warm-up (or readiness check) prompt that shares no prefix with any measured prompt. */
    public String warmup() {
        return "[warm-up " + runTag + "-" + warmups.incrementAndGet()
                + "] Write a short story about a lighthouse keeper and a storm.";
    }

    /** Mixes the run's seed with the stage's name (FNV-1a, then SplitMix64's finaliser): stable across JVMs. */
    static long stageSeed(long seed, String stageName) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < stageName.length(); i++) {
            hash = (hash ^ stageName.charAt(i)) * 0x100000001b3L;
        }
        return mix(seed ^ hash);
    }

    /** SplitMix64's finaliser: nearby inputs give unrelated outputs. */
    private static long mix(long value) {
        long mixed = (value ^ (value >>> 30)) * 0xbf58476d1ce4e5b9L;
        mixed = (mixed ^ (mixed >>> 27)) * 0x94d049bb133111ebL;
        return mixed ^ (mixed >>> 31);
    }

    /**
     * One stage's requests, drawn in issue order from a generator seeded for the stage. Thread-safe: the n-th call of
     * {@link #next} returns the n-th request whichever thread makes it.
     */
    public static final class StageRequests {
        /** Full trace blocks kept for reuse; each is {@value TraceDataset#BLOCK_TOKENS} words, about 3.5 kB. */
        private static final int CACHED_BLOCKS = 4096;

        private final BenchmarkConfig config;
        private final long stageSeed;
        private final Random random;
        private final String[] groupPrompts;
        private final Map<Long, String> traceBlocks = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, String> eldest) {
                return size() > CACHED_BLOCKS;
            }
        };
        private int[] conversations;
        private int nextConversation;
        private long issued;
        private long sessions;

        private StageRequests(BenchmarkConfig config, long stageSeed) {
            this.config = config;
            this.stageSeed = stageSeed;
            this.random = new Random(stageSeed);
            SharedPrefixShape shape = config.sharedPrefix();
            this.groupPrompts = new String[config.dataset() == Dataset.SHARED_PREFIX ? shape.groups() : 0];
            for (int group = 0; group < groupPrompts.length; group++) {
                groupPrompts[group] = words(shape.prefixTokens());
            }
        }

        /**
         * What a closed-loop stream sends next: the stage's next session, turn by turn, or else its next request alone.
         */
        public Conversation nextConversation() {
            return nextConversation(Shard.WHOLE);
        }

        /** {@link #nextConversation()} of {@code shard}: the next session or request whose position is its. */
        public Conversation nextConversation(Shard shard) {
            if (config.dataset() != Dataset.SESSIONS) {
                DatasetRequest request = next(shard);
                return new Conversation(1, () -> request, () -> 0);
            }
            long number;
            synchronized (this) {
                number = shard.position(sessions++);
            }
            return session(number);
        }

        /**
         * The next request whose position is {@code shard}'s: the others are drawn and passed over, so each shard's
         * requests are exactly those one runner would have sent at the same positions.
         */
        public synchronized DatasetRequest next(Shard shard) {
            DatasetRequest request = next();
            while (!shard.owns(request.index())) {
                request = next();
            }
            return request;
        }

        /**
         * Session {@code number} of the stage. Its messages and replies are seeded by the stage and the number alone,
         * so two runs send identical turns; each reply in the history is that many words of synthetic text, not the
         * server's answer, which would differ from run to run.
         */
        private Conversation session(long number) {
            SessionShape shape = config.sessions();
            Random text = new Random(mix(stageSeed ^ mix(number)));
            Random pauses = new Random(mix(~stageSeed ^ mix(number)));
            int maxTokens = config.measuredMaxTokens();
            Map<String, String> headers =
                    Map.of(shape.header(), "session-" + Long.toHexString(mix(stageSeed + number)));
            double meanThinkNanos = shape.thinkTime().toNanos();
            List<Exchange> history = new ArrayList<>();
            int[] turn = new int[1];
            Supplier<DatasetRequest> turns = () -> {
                String prompt = words(text, turn[0] == 0 ? shape.firstTokens() : shape.turnTokens());
                DatasetRequest request = new DatasetRequest(
                        null,
                        List.copyOf(history),
                        prompt,
                        maxTokens,
                        number * shape.turns() + turn[0],
                        turn[0] + 1,
                        headers);
                history.add(new Exchange(prompt, words(text, maxTokens)));
                turn[0]++;
                return request;
            };
            LongSupplier thinkNanos = () -> Math.round(
                    Math.min(-Math.log(1 - pauses.nextDouble()), RunnerFlags.MAX_THINK_TIME_MEANS) * meanThinkNanos);
            return new Conversation(shape.turns(), turns, thinkNanos);
        }

        /** The stage's next request; sessions are sent conversation by conversation ({@link #nextConversation}). */
        public synchronized DatasetRequest next() {
            long index = issued++;
            int maxTokens = config.measuredMaxTokens();
            return switch (config.dataset()) {
                case PROMPTS -> {
                    List<String> prompts = config.prompts();
                    yield new DatasetRequest(null, prompts.get((int) (index % prompts.size())), maxTokens, index);
                }
                case RANDOM -> {
                    int inputWords =
                            config.inputLength() != null ? config.inputLength() : RandomLengths.DEFAULT.input(random);
                    int outputTokens =
                            config.outputLength() != null ? maxTokens : RandomLengths.DEFAULT.output(random, maxTokens);
                    yield new DatasetRequest(null, words(inputWords), outputTokens, index);
                }
                case SHAREGPT -> {
                    ShareGptDataset dataset = config.shareGpt();
                    int conversation = nextConversation(dataset.size());
                    int replyTokens = Math.min(dataset.replyTokens(conversation), config.maxTokens());
                    yield new DatasetRequest(
                            null,
                            dataset.prompt(conversation),
                            config.outputLength() != null ? config.outputLength() : replyTokens,
                            index);
                }
                case SHARED_PREFIX -> {
                    String groupPrompt = groupPrompts[random.nextInt(groupPrompts.length)];
                    yield new DatasetRequest(
                            groupPrompt, words(config.sharedPrefix().questionTokens()), maxTokens, index);
                }
                case TRACE -> {
                    List<TraceDataset.Request> window = config.trace().requests();
                    TraceDataset.Request request = window.get((int) (index % window.size()));
                    int outputTokens = config.outputLength() != null
                            ? config.outputLength()
                            : Math.min(request.outputLength(), config.maxTokens());
                    yield new DatasetRequest(null, tracePrompt(request), outputTokens, index);
                }
                case SESSIONS -> throw new IllegalStateException("sessions are sent a conversation at a time");
            };
        }

        /**
         * A trace request's prompt of {@code inputLength} words: block i is the text of its i-th hash id (the same text
         * for the same id throughout the stage, so a prefix cache sees the sharing the trace had), and words past the
         * blocks its ids cover are this request's own. Blocks differ from stage to stage, so no stage warms the cache
         * for the next.
         */
        private String tracePrompt(TraceDataset.Request request) {
            int blockWords = TraceDataset.BLOCK_TOKENS;
            StringBuilder prompt = new StringBuilder(request.inputLength() * 8);
            long[] ids = request.hashIds();
            for (int block = 0, words = 0; words < request.inputLength(); block++) {
                int count = Math.min(blockWords, request.inputLength() - words);
                prompt.append(words == 0 ? "" : " ");
                if (block >= ids.length) {
                    prompt.append(words(count));
                } else if (count == blockWords) {
                    prompt.append(traceBlocks.computeIfAbsent(ids[block], id -> block(id, blockWords)));
                } else {
                    prompt.append(block(ids[block], count));
                }
                words += count;
            }
            return prompt.toString();
        }

        /** The first {@code count} words of the stage's block {@code id}. */
        private String block(long id, int count) {
            return words(new Random(mix(stageSeed ^ mix(id))), count);
        }

        /** The conversations in a seeded random order, shuffled afresh each time they run out. */
        private int nextConversation(int size) {
            if (conversations == null) {
                conversations = new int[size];
                for (int i = 0; i < size; i++) {
                    conversations[i] = i;
                }
            }
            if (nextConversation == 0) {
                for (int i = size - 1; i > 0; i--) {
                    int other = random.nextInt(i + 1);
                    int swapped = conversations[i];
                    conversations[i] = conversations[other];
                    conversations[other] = swapped;
                }
            }
            int conversation = conversations[nextConversation];
            nextConversation = (nextConversation + 1) % size;
            return conversation;
        }

        private String words(int count) {
            return words(random, count);
        }

        private static String words(Random random, int count) {
            StringBuilder text = new StringBuilder(count * 8);
            for (int i = 0; i < count; i++) {
                text.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
            }
            return text.toString();
        }
    }

    /**
     * The requests one closed-loop stream sends in a row: a session's turns, with the user's think time between them,
     * or a single request. Held by one stream at a time.
     */
    public static final class Conversation {
        private final int length;
        private final Supplier<DatasetRequest> requests;
        private final LongSupplier thinkNanos;
        private int sent;

        Conversation(int length, Supplier<DatasetRequest> requests, LongSupplier thinkNanos) {
            this.length = length;
            this.requests = requests;
            this.thinkNanos = thinkNanos;
        }

        public boolean hasNext() {
            return sent < length;
        }

        public DatasetRequest next() {
            sent++;
            return requests.get();
        }

        /** How long the user waits after a reply before sending the next turn, in nanoseconds. */
        public long thinkNanos() {
            return thinkNanos.getAsLong();
        }
    }
}
