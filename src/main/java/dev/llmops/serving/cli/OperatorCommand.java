package dev.llmops.serving.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.javaoperatorsdk.operator.Operator;
import io.quarkus.runtime.Quarkus;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.io.File;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.net.ssl.SSLException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Starts the controllers; the only subcommand that talks to a cluster on its own. */
@Command(
        name = "operator",
        mixinStandardHelpOptions = true,
        description = "Run the ModelServer, BenchmarkRun and ServingExperiment controllers against the current cluster "
                + "(the default).")
public class OperatorCommand implements Callable<Integer> {

    /**
     * How long the API may stay unreachable at start before the operator gives up. Short, so that a laptop without a
     * cluster hears of it at once; in a pod, Kubernetes restarts the container with a growing back-off.
     */
    static final Duration REACHABILITY_WINDOW = Duration.ofSeconds(3);

    private static final Duration FIRST_PAUSE = Duration.ofMillis(250);
    private static final Duration LONGEST_PAUSE = Duration.ofSeconds(1);

    @Option(
            names = "--verbose",
            description = "Debug logs of the operator and the operator SDK, and the stack trace of a start-up failure.")
    boolean verbose;

    /*
     * Looked up only when the operator runs: the Operator bean's client proxy builds the Kubernetes client (its TLS
     * context, its HTTP client) in its constructor, so injecting the Operator itself made every command, --help
     * included, pay for it.
     */
    @Inject
    Instance<Operator> operator;

    /** The client the operator uses (the operator SDK takes the Quarkus one). */
    @Inject
    Instance<KubernetesClient> kubernetes;

    @Override
    public Integer call() {
        if (verbose) {
            raiseLogLevels();
        }
        KubernetesClient client;
        try {
            client = kubernetes.get();
        } catch (RuntimeException e) {
            return fail(
                    "operator: cannot configure the Kubernetes client: " + Causes.rootMessage(e)
                            + ". Point KUBECONFIG at a cluster's kubeconfig, or run `demo` to try the operator "
                            + "without a cluster.",
                    e);
        }
        Throwable unreachable = unreachable(client);
        if (unreachable != null) {
            return fail(unreachableMessage(client.getConfiguration(), unreachable), unreachable);
        }
        try {
            operator.get().start();
        } catch (RuntimeException e) {
            return fail(
                    "operator: could not start the controllers against "
                            + client.getConfiguration().getMasterUrl() + ": " + Causes.rootMessage(e)
                            + (verbose ? "" : " (--verbose shows the stack trace)"),
                    e);
        }
        Quarkus.waitForExit();
        return 0;
    }

    private int fail(String line, Throwable cause) {
        System.err.println(line);
        if (verbose) {
            cause.printStackTrace();
        }
        return 1;
    }

    /**
     * Whether the API server answers at all, tried for {@link #REACHABILITY_WINDOW} through the operator's own HTTP
     * client (its TLS settings, proxy and credentials) without the client's retries. Any HTTP status counts as an
     * answer: what the API then says (401, 403, a missing CRD) is the operator SDK's to report, so this check never
     * fails a start that the SDK would have got through; it only spares the SDK's 20 s of retries against an address
     * that does not answer. Returns null when it answered, otherwise the last failure.
     */
    static Throwable unreachable(KubernetesClient client) {
        Config config = client.getConfiguration();
        HttpClient http = client.getHttpClient()
                .newBuilder()
                .tag(new RequestConfigBuilder(config.getRequestConfig())
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build();
        String version = config.getMasterUrl().replaceAll("/+$", "") + "/version";
        long deadline = System.nanoTime() + REACHABILITY_WINDOW.toNanos();
        Duration pause = FIRST_PAUSE;
        Throwable last;
        while (true) {
            long left = Math.max(TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()), 500);
            HttpRequest request = http.newHttpRequestBuilder()
                    .uri(version)
                    .timeout(left, TimeUnit.MILLISECONDS)
                    .build();
            try {
                http.sendAsync(request, byte[].class).get(left, TimeUnit.MILLISECONDS);
                return null;
            } catch (ExecutionException e) {
                last = e.getCause() != null ? e.getCause() : e;
            } catch (TimeoutException e) {
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return e;
            }
            if (System.nanoTime() + pause.toNanos() >= deadline) {
                return last;
            }
            try {
                Thread.sleep(pause.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return e;
            }
            pause = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
        }
    }

    /** One line: the URL tried, where it came from, why it failed, and the ways forward. */
    static String unreachableMessage(Config config, Throwable failure) {
        String line = "operator: cannot reach the Kubernetes API at " + config.getMasterUrl();
        File kubeconfig = config.getFile() != null ? config.getFile() : existingKubeconfig();
        if (kubeconfig != null) {
            line += " (the server of kubeconfig " + kubeconfig + "): " + reason(failure) + ".";
        } else if (System.getenv("KUBERNETES_SERVICE_HOST") != null) {
            line += " (the in-cluster address, KUBERNETES_SERVICE_HOST): " + reason(failure) + ".";
        } else if (System.getProperty(Config.KUBERNETES_MASTER_SYSTEM_PROPERTY) != null
                || System.getenv("KUBERNETES_MASTER") != null) {
            line += " (KUBERNETES_MASTER): " + reason(failure) + ".";
        } else {
            line += ": " + reason(failure) + ". No kubeconfig found ("
                    + (System.getenv("KUBECONFIG") == null ? "KUBECONFIG is unset, " : "")
                    + "no file at " + String.join(", ", Config.getKubeconfigFilenames()) + ") and not in a cluster"
                    + " (KUBERNETES_SERVICE_HOST is unset), so the client tried the in-cluster default.";
        }
        return line
                + " Point KUBECONFIG at a reachable cluster's kubeconfig, or run `demo` to try the operator without a"
                + " cluster.";
    }

    private static File existingKubeconfig() {
        return Config.getKubeconfigFilenames().stream()
                .map(File::new)
                .filter(File::isFile)
                .findFirst()
                .orElse(null);
    }

    /** The failure in words: unknown host, connection refused, no answer in time, TLS. */
    static String reason(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String name = cause.getClass().getSimpleName();
            if (cause instanceof UnknownHostException) {
                return "unknown host " + cause.getMessage();
            }
            if (cause instanceof TimeoutException || name.contains("Timeout")) {
                return "no answer within " + REACHABILITY_WINDOW.toSeconds() + " s";
            }
            if (cause instanceof ConnectException) {
                String message =
                        cause.getMessage() == null ? "" : cause.getMessage().split(": /", 2)[0];
                return message.isEmpty()
                        ? "cannot connect"
                        : message.substring(0, 1).toLowerCase() + message.substring(1);
            }
            if (cause instanceof SSLException) {
                return "TLS handshake failed: " + cause.getMessage();
            }
        }
        return Causes.rootMessage(failure);
    }

    /** Debug logs of this project and the operator SDK, and Quarkus's own start-up lines (the HTTP port). */
    private static void raiseLogLevels() {
        for (String category : List.of("dev.llmops", "io.javaoperatorsdk")) {
            Logger.getLogger(category).setLevel(Level.FINE);
        }
        Logger.getLogger("io.quarkus").setLevel(Level.INFO);
    }
}
