package dev.llmops.serving.runner;

import dev.llmops.serving.runner.statistics.LatencyHistogram;
import dev.llmops.serving.runner.statistics.LatencySummary;
import dev.llmops.serving.runner.transport.OpenAiClient;
import java.lang.management.ManagementFactory;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Measures the client's own lag, the way Node's event-loop delay monitor does: every 10 ms a timer task notes how late
 * it woke up and hands a task to the client's callback threads, noting how long it waited there. When either is large
 * the client, not the server, was slow, and its TTFT and ITL figures are inflated.
 */
final class ClientLagProbe implements AutoCloseable {

    static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** Lag and CPU of one stage. */
    record Reading(double p99Millis, double maxMillis, double cpuSeconds) {}

    private final Executor callbacks;
    private final ScheduledExecutorService timer =
            new ScheduledThreadPoolExecutor(1, OpenAiClient.daemonThreads("bench-lag-probe"));
    private LatencyHistogram lag = new LatencyHistogram();
    private long cpuAtReset = processCpuNanos();
    private long startNanos;
    private long ticks;

    ClientLagProbe(Executor callbacks) {
        this.callbacks = callbacks;
    }

    void start() {
        startNanos = System.nanoTime();
        timer.scheduleAtFixedRate(this::tick, PERIOD_NANOS, PERIOD_NANOS, TimeUnit.NANOSECONDS);
    }

    /** Lag and CPU since the previous reading; starts the next. */
    synchronized Reading readAndReset() {
        LatencySummary summary = lag.summary();
        long cpu = processCpuNanos();
        Reading reading = new Reading(
                summary == null ? 0 : summary.p99(), summary == null ? 0 : summary.max(), (cpu - cpuAtReset) / 1e9);
        lag = new LatencyHistogram();
        cpuAtReset = cpu;
        return reading;
    }

    private void tick() {
        long now = System.nanoTime();
        ticks++;
        record(now - (startNanos + ticks * PERIOD_NANOS));
        try {
            callbacks.execute(() -> record(System.nanoTime() - now));
        } catch (RejectedExecutionException shuttingDown) {
            timer.shutdown();
        }
    }

    private synchronized void record(long nanos) {
        lag.record(nanos);
    }

    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime()
                : 0;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
