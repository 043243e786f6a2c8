package dev.llmops.serving.e2e.support;

import dev.llmops.serving.api.contract.SampleBombs;
import dev.llmops.serving.demo.KubeletStandIn;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs a benchmark pod's {@code bench} command line with the packaged runner in a JVM of its own, as the pod's
 * container would, copying its output into the pod's log as it is written, so the log (the runner's
 * progress lines) can be read while the benchmark runs; cancelling the pod (interrupting the waiting thread) kills the
 * process. The image {@value #SAMPLES_BOMB_IMAGE} plays a tenant's hostile runner image: it runs the real runner,
 * then prints a samples line that is small on the wire and huge once decoded.
 */
public final class RunnerProcess implements KubeletStandIn.BenchmarkLauncher {

    public static final String SAMPLES_BOMB_IMAGE = "registry.example/hostile/runner:samples-bomb";

    private static final Path JAR = ProjectPaths.resolve("target/quarkus-app/quarkus-run.jar");

    @Override
    public int run(String image, List<String> args, Map<String, String> environment, PrintWriter log) {
        int exitCode = run(args, environment, log);
        if (SAMPLES_BOMB_IMAGE.equals(image)) {
            log.println(SampleBombs.logLine(SampleBombs.numbersAsTokens()));
            log.flush();
        }
        return exitCode;
    }

    @Override
    public int run(List<String> args, PrintWriter log) {
        return run(args, Map.of(), log);
    }

    /** The container's variables are added to this JVM's environment, as the pod's would be to the image's. */
    @Override
    public int run(List<String> args, Map<String, String> environment, PrintWriter log) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+ExitOnOutOfMemoryError",
                "-XX:TieredStopAtLevel=1",
                "-jar",
                JAR.toAbsolutePath().toString(),
                "bench"));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        return runCopyingOutput(builder, log, Process::destroyForcibly);
    }

    /**
     * Starts the process, copies its output into the pod's log as it is written and returns its exit code; an
     * interrupt (the pod cancelled) kills it with {@code kill} and returns 137, as SIGKILL would.
     */
    static int runCopyingOutput(ProcessBuilder builder, PrintWriter log, Consumer<Process> kill) {
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + builder.command(), e);
        }
        Thread copier = new Thread(() -> copy(process, log), "benchmark-pod-log");
        copier.setDaemon(true);
        copier.start();
        try {
            int exitCode = process.waitFor();
            copier.join();
            return exitCode;
        } catch (InterruptedException e) {
            // Killing the process closes its output, which ends the copier.
            kill.accept(process);
            Thread.currentThread().interrupt();
            return 137;
        }
    }

    private static void copy(Process process, PrintWriter log) {
        char[] buffer = new char[8192];
        try (Reader output = new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)) {
            for (int read = output.read(buffer); read >= 0; read = output.read(buffer)) {
                log.write(buffer, 0, read);
                log.flush();
            }
        } catch (IOException e) {
            log.println("reading the runner's output failed: " + e.getMessage());
        }
    }
}
