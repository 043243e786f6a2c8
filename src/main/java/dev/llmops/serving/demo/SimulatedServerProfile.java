package dev.llmops.serving.demo;

import dev.llmops.serving.simulator.Fault;
import dev.llmops.serving.simulator.SpeculativeAcceptance;
import java.time.Duration;
import java.util.List;

/**
 * How fast and how well the simulated SGLang server behind a pod behaves. Speculative decoding is modelled the way it
 * shows on the wire: each decoding step takes a little longer but delivers several accepted tokens in one chunk, as
 * many as drawn for that step.
 *
 * @param acceptance accepted tokens per speculative step; null for an autoregressive server (one token per step)
 * @param batchSlowdown how much slower each step gets per extra running request (see the simulator's batchSlowdown)
 * @param startupFailure what the server logs before it exits at start, every time it is started; null when it starts
 */
public record SimulatedServerProfile(
        Duration ttft,
        Duration stepDelay,
        SpeculativeAcceptance acceptance,
        int maxRunning,
        double batchSlowdown,
        Duration loading,
        Fault fault,
        String startupFailure) {

    /** A server that starts. */
    public SimulatedServerProfile(
            Duration ttft,
            Duration stepDelay,
            SpeculativeAcceptance acceptance,
            int maxRunning,
            double batchSlowdown,
            Duration loading,
            Fault fault) {
        this(ttft, stepDelay, acceptance, maxRunning, batchSlowdown, loading, fault, null);
    }

    /** 50 tokens/s per stream, batches of up to 32, a few seconds of "loading" so the Loading phase shows. */
    public static SimulatedServerProfile autoregressive() {
        return new SimulatedServerProfile(
                Duration.ofMillis(120), Duration.ofMillis(20), null, 32, 0, Duration.ofSeconds(3), Fault.NONE);
    }

    /**
     * EAGLE3-like with four draft tokens: a step takes 25 ms and delivers 1 to 4 tokens, 2.85 on average (114 tokens/s
     * per stream).
     */
    public static SimulatedServerProfile speculative() {
        return new SimulatedServerProfile(
                Duration.ofMillis(120),
                Duration.ofMillis(25),
                SpeculativeAcceptance.of(List.of(0.15, 0.2, 0.3, 0.35)),
                32,
                0,
                Duration.ofSeconds(3),
                Fault.NONE);
    }

    /**
     * DFlash-like with blocks of eight draft tokens: a step takes 30 ms and delivers 1 to 8 tokens, 5.93 on average
     * (198 tokens/s per stream), well ahead of EAGLE3's 114.
     */
    public static SimulatedServerProfile dflash() {
        return new SimulatedServerProfile(
                Duration.ofMillis(120),
                Duration.ofMillis(30),
                SpeculativeAcceptance.of(List.of(0.02, 0.03, 0.05, 0.1, 0.15, 0.2, 0.25, 0.2)),
                32,
                0,
                Duration.ofSeconds(3),
                Fault.NONE);
    }

    public SimulatedServerProfile withFault(Fault value) {
        return new SimulatedServerProfile(
                ttft, stepDelay, acceptance, maxRunning, batchSlowdown, loading, value, startupFailure);
    }

    /** This server with each decoding step {@code factor} times as long (below 1: faster), TTFT unchanged. */
    public SimulatedServerProfile withStepDelayScaledBy(double factor) {
        return new SimulatedServerProfile(
                ttft,
                Duration.ofNanos(Math.round(stepDelay.toNanos() * factor)),
                acceptance,
                maxRunning,
                batchSlowdown,
                loading,
                fault,
                startupFailure);
    }

    /** This server, loading for the given time instead. */
    public SimulatedServerProfile withLoading(Duration value) {
        return new SimulatedServerProfile(
                ttft, stepDelay, acceptance, maxRunning, batchSlowdown, value, fault, startupFailure);
    }

    /** This server, exiting at start after logging the given lines, as a container in CrashLoopBackOff does. */
    public SimulatedServerProfile failingAtStart(String log) {
        return new SimulatedServerProfile(ttft, stepDelay, acceptance, maxRunning, batchSlowdown, loading, fault, log);
    }

    /** Tokens per second one stream receives. */
    public double tokensPerSecondPerStream() {
        return (acceptance == null ? 1 : acceptance.mean()) * 1000.0 / stepDelay.toMillis();
    }
}
