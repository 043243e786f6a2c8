package dev.llmops.serving.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A control-plane component kube-api-test does not run (controller-manager, scheduler, or kube-apiserver restarted
 * after an outage), started as a child process with its output in a log file, so a failing suite leaves the
 * component's own explanation behind.
 */
final class ComponentProcess implements AutoCloseable {

    private final String name;
    private final List<String> command;
    private final Path log;
    private volatile Process process;

    private ComponentProcess(String name, List<String> command, Path log) {
        this.name = name;
        this.command = command;
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
            Files.deleteIfExists(log);
            ComponentProcess component = new ComponentProcess(name, List.copyOf(command), log);
            component.launch();
            return component;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + command, e);
        }
    }

    /**
     * Starts the component again with the same command line if it has exited, as the kubelet restarts a control-plane
     * static pod; its log continues in the same file. Returns whether it restarted it.
     */
    boolean restartIfExited() {
        if (process.isAlive()) {
            return false;
        }
        launch();
        return true;
    }

    private void launch() {
        try {
            Files.writeString(
                    log, "=== started " + command.get(0) + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
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

    long pid() {
        return process.pid();
    }

    /** SIGKILL, as a crash or an OOM kill ends it; waits for the end. */
    void kill() {
        try {
            process.destroyForcibly().waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing " + name, e);
        }
    }

    @Override
    public void close() {
        Processes.stop(process, Duration.ofSeconds(10));
    }
}
