package dev.llmops.serving.runner.shard;

/**
 * Where the shards of a run meet before each stage, so that no stage starts before every shard is ready and all start
 * it at one instant.
 */
public interface Barrier extends AutoCloseable {

    /** One runner alone: every stage starts at once. */
    Barrier NONE = stage -> System.nanoTime();

    /**
     * Waits until every shard has reached {@code stage}, then returns the instant they agreed to start it, as a
     * {@link System#nanoTime()} of this process (in the near future).
     *
     * @throws BarrierException when a shard did not come in time, naming it
     */
    long await(String stage) throws InterruptedException;

    @Override
    default void close() {}
}
