package dev.llmops.serving.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged executable started as the operator where no Kubernetes API answers: a user's first try on a laptop. It
 * must say in one line what it tried and why that failed, and exit 1 within seconds, without stack traces; the
 * operator SDK on its own retried for 20 s and then printed some 360 lines of them.
 *
 * <p>Runs the jar that {@code mvn package} built (failsafe, {@code mvn verify}); no control plane is needed.
 */
class OperatorWithoutClusterIT {

    private static final Path JAR =
            Path.of("target/quarkus-app/quarkus-run.jar").toAbsolutePath();
    /**
     * The SDK alone retried for 20 s before giving up, start-up not counted. The operator now gives up after 3 s; the
     * rest of the bound is start-up on a 2-core machine shared with other builds (about 5 s at load average 10).
     */
    private static final Duration BOUND = Duration.ofSeconds(18);

    private static final Duration KILL_AFTER = Duration.ofSeconds(90);

    @TempDir
    Path home;

    @Test
    void aKubeconfigWhoseServerRefusesConnectionsExitsWithOneLine() throws Exception {
        int port = closedPort();
        String url = "https://127.0.0.1:" + port;
        Path kubeconfig = writeKubeconfig(url);

        Run run = run(Map.of("KUBECONFIG", kubeconfig.toString()), "operator");

        assertThat(run.exitCode).as(run.describe()).isEqualTo(1);
        assertThat(run.elapsed).as(run.describe()).isLessThan(BOUND);
        assertOneLineWithoutStackTraces(run);
        assertThat(run.stderrLines().get(0))
                .as(run.describe())
                .contains(url)
                .contains("connection refused")
                .contains(kubeconfig.toString())
                .contains("KUBECONFIG")
                .contains("demo");
    }

    @Test
    void noKubeconfigAndNoClusterExitsWithOneLine() throws Exception {
        Run run = run(Map.of());

        assertThat(run.exitCode).as(run.describe()).isEqualTo(1);
        assertThat(run.elapsed).as(run.describe()).isLessThan(BOUND);
        assertOneLineWithoutStackTraces(run);
        assertThat(run.stderrLines().get(0))
                .as(run.describe())
                .contains("https://kubernetes.default.svc")
                .containsIgnoringCase("no kubeconfig found")
                .contains("KUBECONFIG")
                .contains("demo");
    }

    @Test
    void verboseShowsTheCause() throws Exception {
        int port = closedPort();
        Path kubeconfig = writeKubeconfig("https://127.0.0.1:" + port);

        Run run = run(Map.of("KUBECONFIG", kubeconfig.toString()), "operator", "--verbose");

        assertThat(run.exitCode).as(run.describe()).isEqualTo(1);
        assertThat(run.stderr)
                .as(run.describe())
                .contains("https://127.0.0.1:" + port)
                .contains("ConnectException")
                .containsPattern("(?m)^\\s+at ");
    }

    private static void assertOneLineWithoutStackTraces(Run run) {
        assertThat(run.stderrLines()).as(run.describe()).hasSize(1);
        assertThat(run.stdout.lines()).as(run.describe()).isEmpty();
        assertThat(run.stderr + run.stdout)
                .as(run.describe())
                .doesNotContain("Exception")
                .doesNotContainPattern("(?m)^\\s+at ");
    }

    private Path writeKubeconfig(String server) throws IOException {
        return Files.writeString(home.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: unreachable
                  cluster:
                    server: %s
                    insecure-skip-tls-verify: true
                users:
                - name: someone
                  user:
                    token: not-a-real-token
                contexts:
                - name: unreachable
                  context:
                    cluster: unreachable
                    user: someone
                current-context: unreachable
                """.formatted(server), StandardCharsets.UTF_8);
    }

    /**
     * The jar as a user starts it ({@code java -jar ... args}), with an environment of its own: HOME an empty
     * directory (no ~/.kube/config), no KUBERNETES_SERVICE_HOST, nothing of the test JVM's environment but PATH.
     */
    private Run run(Map<String, String> environment, String... arguments) throws Exception {
        assertThat(JAR)
                .as("the packaged executable (mvn package runs before failsafe)")
                .exists();
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString()));
        command.addAll(List.of(arguments));
        Path out = Files.createTempFile(home, "stdout", ".txt");
        Path err = Files.createTempFile(home, "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(home.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().clear();
        builder.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        builder.environment().put("HOME", home.toString());
        builder.environment().putAll(environment);
        long start = System.nanoTime();
        Process process = builder.start();
        if (!process.waitFor(KILL_AFTER.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        int exitCode = process.isAlive() ? -1 : process.exitValue();
        return new Run(
                command,
                exitCode,
                elapsed,
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record Run(List<String> command, int exitCode, Duration elapsed, String stdout, String stderr) {

        List<String> stderrLines() {
            return stderr.lines().filter(line -> !line.isBlank()).toList();
        }

        String describe() {
            return "%s exited %d after %d ms%n--- stderr (%d lines)%n%s%n--- stdout (%d lines)%n%s"
                    .formatted(
                            command,
                            exitCode,
                            elapsed.toMillis(),
                            stderr.lines().count(),
                            head(stderr),
                            stdout.lines().count(),
                            head(stdout));
        }

        private static String head(String text) {
            return String.join("\n", text.lines().limit(30).toList());
        }
    }
}
