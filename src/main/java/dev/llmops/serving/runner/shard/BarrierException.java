package dev.llmops.serving.runner.shard;

/** The shards of a run did not all meet at a stage in time; the message names the shards that were missing. */
public final class BarrierException extends RuntimeException {

    public BarrierException(String message) {
        super(message);
    }
}
