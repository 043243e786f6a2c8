package dev.llmops.serving.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.e2e.support.Processes;
import dev.llmops.serving.e2e.support.ProjectPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo as a user runs it: the packaged jar in its production profile, its output redirected to a file. Needs no
 * control plane; it runs after packaging, with the end-to-end suite.
 */
class DemoJarIT {

    private static final Path JAR = ProjectPaths.resolve("target/quarkus-app/quarkus-run.jar");
    private static final Duration DEMO_TIMEOUT = Duration.ofMinutes(4);
    private static final Pattern LOG_LINE =
            Pattern.compile("(?m)^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} +(TRACE|DEBUG|INFO|WARN|ERROR) ");
    private static final Pattern EAGLE3_ROW = Pattern.compile(
            "(?m)^eagle3 +llm-eagle3 +Succeeded +\\S+ +\\S+ +\\S+ +\\d+ +(\\d+\\.\\d+)x \\[\\S+, \\S+\\] at c\\d+"
                    + " +OutputsAgree +Succeeded$");
    private static final String ESC = "\u001b";

    @Test
    void speculativeDecodingPrintsItsOwnLinesOnlyPlainAndShowsTheSpeedup(@TempDir Path dir) throws Exception {
        try (Demo demo = Demo.start(dir, List.of(), "demo")) {
            assertThat(demo.awaitExit()).as(demo.stdout()).isZero();
            String out = demo.stdout();
            assertThat(out).doesNotContain(ESC).doesNotContainPattern(LOG_LINE).doesNotContain("Exception");
            assertThat(out)
                    .startsWith("Kubernetes API ")
                    .contains(
                            "br/autoregressive Succeeded",
                            "br/eagle3 Succeeded",
                            "Speedup of eagle3 over autoregressive");
            Matcher row = EAGLE3_ROW.matcher(out);
            assertThat(row.find()).as("eagle3 row with a speedup in:\n" + out).isTrue();
            assertThat(Double.parseDouble(row.group(1))).isGreaterThan(1.5);
        }
    }

    @Test
    void halfReadyExplainsTheDiagnosisAndVerboseShowsTheLogWithoutColourInAFile(@TempDir Path dir) throws Exception {
        // Colour forced as a user's environment may force it (QUARKUS_CONSOLE_COLOR): a file still gets none.
        try (Demo demo = Demo.start(
                dir, List.of("-Dquarkus.console.color=true"), "demo", "--scenario", "half-ready", "--verbose")) {
            assertThat(demo.awaitExit()).as(demo.stdout()).isZero();
            String out = demo.stdout();
            assertThat(out).doesNotContain(ESC).containsPattern(LOG_LINE).doesNotContain("Exception");
            assertThat(out)
                    .contains(
                            "llm-half-ready is not ready: ",
                            "br/half-ready Failed",
                            "ms/llm-half-ready Failed (NoKernelImage)",
                            "As expected: the server answers /v1/models, but its first real generation failed with no "
                                    + "kernel image for this GPU, so it was Failed at once and the benchmark gave up "
                                    + "with ServerNotReady.");
        }
    }

    @Test
    void ctrlCDuringTheBenchmarkStopsCleanlyWith130AndRemovesTheKubeconfig(@TempDir Path dir) throws Exception {
        Assumptions.assumeFalse(
                sigintIgnored(), "this JVM ignores SIGINT (started in the background), so would the demo");
        try (Demo demo = Demo.start(dir, List.of(), "demo", "--keep")) {
            await("a benchmark running")
                    .atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> !demo.process.isAlive() || demo.stdout().contains(" Running"));
            Matcher kubeconfigLine =
                    Pattern.compile("kubectl --kubeconfig (\\S+) ").matcher(demo.stdout());
            assertThat(kubeconfigLine.find()).as(demo.stdout()).isTrue();
            Path kubeconfig = Path.of(kubeconfigLine.group(1));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(kubeconfig)))
                    .isEqualTo("rw-------");

            new ProcessBuilder("kill", "-INT", String.valueOf(demo.process.pid()))
                    .inheritIO()
                    .start()
                    .waitFor();

            assertThat(demo.awaitExit()).as(demo.stdout()).isEqualTo(130);
            assertThat(demo.stdout())
                    .contains("Interrupted: stopping")
                    .doesNotContain("Exception")
                    .doesNotContainPattern(LOG_LINE);
            assertThat(demo.stderr()).doesNotContain("Exception");
            assertThat(kubeconfig).doesNotExist();
        }
    }

    /**
     * Whether SIGINT is ignored in this process (signal 2 in the SigIgn mask), as in a job a shell started in the
     * background.
     */
    private static boolean sigintIgnored() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("SigIgn:"))
                .anyMatch(l -> (Long.parseLong(l.substring("SigIgn:".length()).strip(), 16) & 2) != 0);
    }

    /** One run of the packaged demo, stdout and stderr each in a file of its own. */
    private record Demo(Process process, Path stdoutFile, Path stderrFile) implements AutoCloseable {

        static Demo start(Path dir, List<String> jvmOptions, String... args) throws IOException {
            assertThat(JAR)
                    .as("the packaged jar (mvn package runs before this test)")
                    .exists();
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            command.addAll(jvmOptions);
            command.add("-jar");
            command.add(JAR.toAbsolutePath().toString());
            command.addAll(List.of(args));
            Path stdout = dir.resolve("stdout.txt");
            Path stderr = dir.resolve("stderr.txt");
            Process process = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectInput(
                            ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile())
                    .start();
            return new Demo(process, stdout, stderr);
        }

        int awaitExit() throws InterruptedException {
            if (!process.waitFor(DEMO_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError("the demo did not end within " + DEMO_TIMEOUT + ":\n" + stdout());
            }
            return process.exitValue();
        }

        @Override
        public void close() {
            if (process.isAlive()) {
                Processes.stop(process, Duration.ofSeconds(10));
            }
        }

        String stdout() {
            return read(stdoutFile);
        }

        String stderr() {
            return read(stderrFile);
        }

        private static String read(Path file) {
            try {
                return Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
