package dev.llmops.serving.runner.shard;

/**
 * Where the shards of a run meet: before each stage, so that no stage starts before every shard is ready and all start
 * it at one instant, and, in a capacity search, after each stage, so that every shard decides the next probe from what
 * all of them measured.
 */
public interface Barrier extends AutoCloseable {

    /** One runner alone: every stage starts at once, and its figures are all there is. */
    Barrier NONE = new Barrier() {
        @Override
        public long await(String stage) {
            return System.nanoTime();
        }

        @Override
        public Exchange exchange(String stage, StageFigures figures) {
            return new Exchange(figures, System.nanoTime());
        }
    };

    /**
     * The figures of a stage added up over every shard, and the instant they were (nanoseconds of one clock, the same
     * for every shard of the run), so every shard measures a search's time alike.
     */
    record Exchange(StageFigures figures, long clockNanos) {}

    /**
     * Waits until every shard has reached {@code stage}, then returns the instant they agreed to start it, as a
     * {@link System#nanoTime()} of this process (in the near future).
     *
     * @throws BarrierException when a shard did not come in time, naming it
     */
    long await(String stage) throws InterruptedException;

    /**
     * Hands this shard's {@code figures} of {@code stage} over and waits for every shard's, added up.
     *
     * @throws BarrierException when a shard did not hand its figures over in time, naming it
     */
    Exchange exchange(String stage, StageFigures figures) throws InterruptedException;

    @Override
    default void close() {}
}
