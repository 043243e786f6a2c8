package dev.llmops.serving.demo;

import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.Deque;
import org.jboss.logging.Logger;

/**
 * Stops what a demo started exactly once, newest first: when the demo ends, or from a shutdown hook when Ctrl-C or
 * SIGTERM ends the process first, so that no simulator, API server or kubeconfig outlives it.
 */
public final class DemoShutdown implements AutoCloseable {

    /** The exit status of a process a shell's Ctrl-C (SIGINT) ended: 128 + 2. */
    public static final int INTERRUPTED_EXIT = 130;

    private static final Logger LOG = Logger.getLogger(DemoShutdown.class);

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private final PrintStream out;
    private final Runnable beforeStopping;
    private final Thread hook = new Thread(this::interrupt, "demo-shutdown");
    private volatile boolean interrupted;
    private boolean stopped;

    private DemoShutdown(PrintStream out, Runnable beforeStopping) {
        this.out = out;
        this.beforeStopping = beforeStopping;
    }

    /**
     * Registers the shutdown hook; {@link #close()} stops everything and removes it. {@code beforeStopping} runs once
     * stopping begins, before anything is stopped.
     */
    public static DemoShutdown install(PrintStream out, Runnable beforeStopping) {
        DemoShutdown shutdown = new DemoShutdown(out, beforeStopping);
        Runtime.getRuntime().addShutdownHook(shutdown.hook);
        return shutdown;
    }

    /** Adds something to stop before everything added earlier; once stopping has begun, stops it and fails. */
    public synchronized <T extends AutoCloseable> T add(T resource) {
        resources.push(resource);
        if (stopped) {
            stopAll();
            throw new IllegalStateException("the demo is stopping");
        }
        return resource;
    }

    /** Whether the process is being stopped by a signal rather than by the demo's end. */
    public boolean interrupted() {
        return interrupted;
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs (or ran) and stops everything
        }
        stopAll();
    }

    private void interrupt() {
        interrupted = true;
        out.printf("%nInterrupted: stopping the operator, the simulated servers and the embedded Kubernetes API.%n");
        stopAll();
        out.flush();
    }

    private synchronized void stopAll() {
        if (!stopped) {
            beforeStopping.run();
        }
        stopped = true;
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (Exception e) {
                LOG.debugf(e, "while stopping the demo");
            }
        }
    }
}
