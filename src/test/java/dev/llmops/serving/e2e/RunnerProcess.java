package dev.llmops.serving.e2e;

import dev.llmops.serving.demo.KubeletStandIn;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a benchmark pod's {@code bench} command line with the packaged runner in a JVM of its own, as the pod's
 * container would; cancelling the pod (interrupting the waiting thread) kills the process.
 */
final class RunnerProcess implements KubeletStandIn.BenchmarkLauncher {

    private static final Path JAR = ProjectPaths.resolve("target/quarkus-app/quarkus-run.jar");

    @Override
    public int run(List<String> args, PrintWriter log) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+ExitOnOutOfMemoryError",
                "-XX:TieredStopAtLevel=1",
                "-jar",
                JAR.toAbsolutePath().toString(),
                "bench"));
        command.addAll(args);
        Path output = null;
        Process process = null;
        try {
            output = Files.createTempFile("benchmark-pod", ".log");
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            int exitCode = process.waitFor();
            log.print(Files.readString(output, StandardCharsets.UTF_8));
            return exitCode;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + command, e);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return 137;
        } finally {
            if (output != null) {
                output.toFile().delete();
            }
        }
    }
}
