package dev.llmops.serving.cli;

import java.security.NoSuchAlgorithmException;
import java.util.Set;
import javax.net.ssl.SSLContext;

/**
 * Builds the JVM's default TLS context on a thread of its own. The JDK HTTP client that {@code probe} and {@code bench}
 * use builds it when the client is created, for http URLs too (the trust store, the cipher suites: about a quarter of a
 * second of CPU), after picocli and Jackson have loaded on the main thread. Started first, it is built on the second
 * core meanwhile, and the client finds it ready; the work and the context are the same.
 */
final class TlsWarmUp {

    /** The commands that create an HTTP client as soon as their arguments are parsed. */
    static final Set<String> HTTP_COMMANDS = Set.of("probe", "bench");

    private TlsWarmUp() {}

    /** Starts the warm-up when {@code args} run a command of {@link #HTTP_COMMANDS}; returns at once. */
    static void startFor(String... args) {
        if (args.length == 0 || !HTTP_COMMANDS.contains(args[0])) {
            return;
        }
        Thread thread = new Thread(TlsWarmUp::buildDefaultContext, "tls-warm-up");
        thread.setDaemon(true);
        thread.start();
    }

    private static void buildDefaultContext() {
        try {
            SSLContext.getDefault();
        } catch (NoSuchAlgorithmException | RuntimeException e) {
            // The HTTP client asks for the same context and reports its failure where it matters.
        }
    }
}
