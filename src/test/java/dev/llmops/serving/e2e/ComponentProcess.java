package dev.llmops.serving.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A control-plane component kube-api-test does not run (controller-manager, scheduler), started as a child process
 * with its output in a log file, so a failing suite leaves the component's own explanation behind.
 */
final class ComponentProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;

    private ComponentProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    static ComponentProcess start(Path binary, List<String> flags, Path logDirectory) {
        String name = binary.getFileName().toString();
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(flags);
        try {
            Files.createDirectories(logDirectory);
            Path log = logDirectory.resolve(name + ".log");
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            return new ComponentProcess(name, process, log);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + command, e);
        }
    }

    /** Fails with the end of the component's log when it has exited. */
    void assertAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(
                    name + " exited with code " + process.exitValue() + "; last lines of " + log + ":\n" + tail());
        }
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        Processes.stop(process, Duration.ofSeconds(10));
    }
}
