package dev.llmops.serving.e2e.support;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The container runtime of the tests: podman with runc under the project's configuration (hack/image/containers.conf,
 * through CONTAINERS_CONF, so the machine's own stays as it is), running images the way a kubelet runs a pod's
 * container: host network (the pod's loopback is the test's), the pod's user, read-only root, dropped capabilities,
 * memory limit and /tmp as the chart's emptyDir.
 */
public final class Podman {

    /** What the container tests need, named in the error when podman is missing (hack/image/build.sh installs it). */
    private static final String INSTALL_HINT = "apt-get install podman runc (Debian), then hack/image/build.sh";

    /** How the end-to-end suite runs the operator and the benchmark runner: {@code container} (default) or process. */
    public static final String E2E_RUNTIME_PROPERTY = "e2e.runtime";

    private static final Path CONFIG = ProjectPaths.resolve("hack/image/containers.conf");
    private static final Path BUILT_IMAGE = ProjectPaths.resolve("target/llm-serving-operator-image.tar");
    private static final Pattern LOADED = Pattern.compile("Loaded image(?:\\(s\\))?: (\\S+)");
    /** The most output kept of a container that ran to its end. */
    private static final int MAX_OUTPUT_BYTES = 256 * 1024;

    private static Podman machine;

    private final Path executable;
    private String builtImage;

    private Podman(Path executable) {
        this.executable = executable;
    }

    /** The machine's podman, or an error saying how to install it. */
    public static synchronized Podman require() {
        if (machine == null) {
            machine = find().orElseThrow(() -> new IllegalStateException(
                    "podman is not on the PATH; the container tests need it with runc: " + INSTALL_HINT));
        }
        return machine;
    }

    /**
     * Whether the end-to-end suite runs the operator and the runner in containers: yes unless
     * {@code -De2e.runtime=process} says otherwise, for a machine without podman. Never chosen silently.
     */
    public static boolean chosenForE2e() {
        String runtime = System.getProperty(E2E_RUNTIME_PROPERTY, "container");
        return switch (runtime) {
            case "container" -> true;
            case "process" -> false;
            default ->
                throw new IllegalArgumentException(
                        E2E_RUNTIME_PROPERTY + " is " + runtime + "; it must be container (the default) or process");
        };
    }

    /** The project's image as hack/image/build.sh wrote it, loaded once per test JVM; its name. */
    public synchronized String builtImage() {
        if (builtImage == null) {
            if (!Files.isRegularFile(BUILT_IMAGE)) {
                throw new IllegalStateException("The project's image " + BUILT_IMAGE + " is missing: the README's test"
                        + " command builds it with hack/image/build.sh --local-base; on a machine without podman, run"
                        + " the suite with -D" + E2E_RUNTIME_PROPERTY + "=process");
            }
            builtImage = load(BUILT_IMAGE);
            System.out.println("[podman] loaded " + builtImage + " from " + BUILT_IMAGE);
        }
        return builtImage;
    }

    /** The machine's podman, if it has one. */
    private static Optional<Podman> find() {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .map(directory -> Path.of(directory, "podman"))
                .filter(Files::isExecutable)
                .findFirst()
                .map(Podman::new);
    }

    /** Loads a docker-archive tarball into podman's storage and returns the image's name as podman reports it. */
    public String load(Path tarball) {
        Result result = exec(List.of("load", "--input", tarball.toAbsolutePath().toString()), Duration.ofMinutes(5));
        result.requireSuccess("podman load " + tarball);
        Matcher loaded = LOADED.matcher(result.output());
        if (!loaded.find()) {
            throw new IllegalStateException("podman load named no image:\n" + result.output());
        }
        return loaded.group(1);
    }

    /** Runs a container to its end (removed after), with the given options before the image and arguments after. */
    public Result run(List<String> options, String image, List<String> arguments, Duration timeout) {
        List<String> command = new ArrayList<>(List.of("run", "--rm"));
        command.addAll(options);
        command.add(image);
        command.addAll(arguments);
        return exec(command, timeout);
    }

    /**
     * Starts a container that goes on running, named {@code name}, its output appended to {@code log}; the returned
     * process is podman's, attached to the container: it ends when the container does, and SIGTERM to it reaches the
     * container. {@link #kill} is the SIGKILL a process cannot proxy.
     */
    public Process start(String name, List<String> options, String image, List<String> arguments, Path log) {
        List<String> command = runCommand(name, options, image, arguments);
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment());
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + command, e);
        }
    }

    /** The command line of {@link #start}, for a caller that starts and restarts the process itself. */
    public List<String> runCommand(String name, List<String> options, String image, List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(executable.toString(), "run", "--rm", "--name", name));
        command.addAll(options);
        command.add(image);
        command.addAll(arguments);
        return command;
    }

    /** What podman's own process needs in its environment: the project's configuration. */
    public static Map<String, String> environment() {
        return Map.of(
                "CONTAINERS_CONF", CONFIG.toString(), "PATH", System.getenv().getOrDefault("PATH", ""));
    }

    /** Sends the signal to the named container (ignored when it has already gone). */
    public void kill(String name, String signal) {
        exec(List.of("kill", "--signal", signal, name), Duration.ofSeconds(30));
    }

    /** Removes the named container whatever its state (ignored when it has already gone). */
    public void remove(String name) {
        exec(List.of("rm", "--force", "--ignore", "--time", "5", name), Duration.ofSeconds(60));
    }

    /**
     * The options that make a container run as the kubelet runs the pod's container: the pod's user and group, the
     * container's security context (read-only root, dropped capabilities, no privilege escalation), its memory
     * limit, and each emptyDir mount as a tmpfs of the volume's size limit; always the host's network, which is the
     * tests' loopback. A read-only root gets no writable directory the pod would not have (podman's default adds
     * /run, /tmp and /var/tmp); the environment is the caller's, since a pod's may come from the downward API.
     */
    public static List<String> optionsOf(PodSpec pod, Container container) {
        List<String> options = new ArrayList<>(List.of("--network", "host"));
        if (pod.getSecurityContext() != null && pod.getSecurityContext().getRunAsUser() != null) {
            Long group = pod.getSecurityContext().getRunAsGroup();
            options.add("--user");
            options.add(pod.getSecurityContext().getRunAsUser() + (group == null ? "" : ":" + group));
        }
        SecurityContext security = container.getSecurityContext();
        if (security != null) {
            if (Boolean.TRUE.equals(security.getReadOnlyRootFilesystem())) {
                options.add("--read-only");
                options.add("--read-only-tmpfs=false");
            }
            if (Boolean.FALSE.equals(security.getAllowPrivilegeEscalation())) {
                options.add("--security-opt=no-new-privileges");
            }
            if (security.getCapabilities() != null && security.getCapabilities().getDrop() != null) {
                security.getCapabilities().getDrop().forEach(capability -> options.add("--cap-drop=" + capability));
            }
        }
        Optional.ofNullable(container.getResources())
                .map(resources -> resources.getLimits())
                .map(limits -> limits.get("memory"))
                .ifPresent(memory -> options.add(
                        "--memory=" + Quantity.getAmountInBytes(memory).longValueExact()));
        Map<String, Volume> volumes = new HashMap<>();
        Optional.ofNullable(pod.getVolumes()).orElse(List.of()).forEach(v -> volumes.put(v.getName(), v));
        for (VolumeMount mount :
                Optional.ofNullable(container.getVolumeMounts()).orElse(List.of())) {
            Volume volume = volumes.get(mount.getName());
            if (volume != null && volume.getEmptyDir() != null) {
                Quantity size = volume.getEmptyDir().getSizeLimit();
                options.add("--tmpfs=" + mount.getMountPath() + ":rw"
                        + (size == null
                                ? ""
                                : ",size=" + Quantity.getAmountInBytes(size).longValueExact()));
            }
        }
        return options;
    }

    private Result exec(List<String> arguments, Duration timeout) {
        List<String> command = new ArrayList<>(List.of(executable.toString()));
        command.addAll(arguments);
        try {
            Path output = Files.createTempFile("podman", ".out");
            try {
                ProcessBuilder builder =
                        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
                builder.environment().putAll(environment());
                Process process = builder.start();
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    Processes.stop(process, Duration.ofSeconds(5));
                    throw new IllegalStateException(command + " did not end within " + timeout + ":\n" + read(output));
                }
                return new Result(command, process.exitValue(), read(output));
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + command, e);
        }
    }

    private static String read(Path output) throws IOException {
        byte[] bytes;
        try (var in = Files.newInputStream(output)) {
            bytes = in.readNBytes(MAX_OUTPUT_BYTES);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A podman command that ran to its end: its exit code and its output (stdout and stderr, bounded). */
    public record Result(List<String> command, int exitCode, String output) {

        public Result requireSuccess(String what) {
            if (exitCode != 0) {
                throw new IllegalStateException(
                        what + " failed with exit code " + exitCode + ": " + command + "\n" + output);
            }
            return this;
        }
    }
}
