package dev.llmops.serving.demo;

import dev.llmops.serving.simulator.Fault;
import java.time.Duration;

/**
 * How fast and how well the simulated SGLang server behind a pod behaves. Speculative decoding is modelled the way it
 * shows on the wire: each decoding step takes a little longer but delivers several accepted tokens in one chunk.
 *
 * @param batchSlowdown how much slower each step gets per extra running request (see the simulator's batchSlowdown)
 */
public record SimulatedServerProfile(
        Duration ttft,
        Duration stepDelay,
        int tokensPerStep,
        int maxRunning,
        double batchSlowdown,
        Duration loading,
        Fault fault) {

    /** 50 tokens/s per stream, batches of up to 32, a few seconds of "loading" so the Loading phase shows. */
    public static SimulatedServerProfile autoregressive() {
        return new SimulatedServerProfile(
                Duration.ofMillis(120), Duration.ofMillis(20), 1, 32, 0, Duration.ofSeconds(3), Fault.NONE);
    }

    /** EAGLE3-like: a step takes 25 ms and delivers 3 tokens (120 tokens/s per stream). */
    public static SimulatedServerProfile speculative() {
        return new SimulatedServerProfile(
                Duration.ofMillis(120), Duration.ofMillis(25), 3, 32, 0, Duration.ofSeconds(3), Fault.NONE);
    }

    public SimulatedServerProfile withFault(Fault value) {
        return new SimulatedServerProfile(ttft, stepDelay, tokensPerStep, maxRunning, batchSlowdown, loading, value);
    }

    /** Tokens per second one stream receives. */
    public double tokensPerSecondPerStream() {
        return tokensPerStep * 1000.0 / stepDelay.toMillis();
    }
}
