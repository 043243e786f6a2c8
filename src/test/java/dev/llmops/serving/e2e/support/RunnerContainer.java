package dev.llmops.serving.e2e.support;

import dev.llmops.serving.api.contract.SampleBombs;
import dev.llmops.serving.demo.KubeletStandIn;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a benchmark pod's runner from the project's built image in podman, as a kubelet runs the pod's container: the
 * image's entry point and JVM flags with the pod's args and environment, its security context (the image's non-root
 * user, read-only root, no capabilities), its memory limit, its emptyDir volumes, and its termination-message path
 * backed by the stand-in's file, so the runner writes its summary where it does in a cluster. The pod's image must be
 * the project's; {@value RunnerProcess#SAMPLES_BOMB_IMAGE} plays a tenant's hostile image, as {@link RunnerProcess}
 * plays it.
 */
public final class RunnerContainer implements KubeletStandIn.BenchmarkLauncher {

    private static final String DEFAULT_TERMINATION_MESSAGE_PATH = "/dev/termination-log";

    private final Podman podman = Podman.require();
    private final String image = podman.builtImage();

    @Override
    public int run(List<String> args, PrintWriter log) {
        throw new UnsupportedOperationException("a benchmark container runs from its pod");
    }

    @Override
    public int run(
            Pod pod, List<String> args, Map<String, String> environment, Path terminationMessage, PrintWriter log) {
        Container container = pod.getSpec().getContainers().get(0);
        boolean hostile = RunnerProcess.SAMPLES_BOMB_IMAGE.equals(container.getImage());
        if (!hostile && !image.equals(container.getImage())) {
            throw new IllegalStateException("Pod " + pod.getMetadata().getName() + " runs image " + container.getImage()
                    + "; the end-to-end plane holds only the project's image " + image);
        }
        String messagePath = container.getTerminationMessagePath() == null
                ? DEFAULT_TERMINATION_MESSAGE_PATH
                : container.getTerminationMessagePath();
        List<String> options = new ArrayList<>(Podman.optionsOf(pod.getSpec(), container));
        environment.forEach((variable, value) -> options.add("--env=" + variable + "=" + value));
        options.add("--volume=" + writableByAnyone(terminationMessage) + ":" + messagePath);
        List<String> arguments = new ArrayList<>(List.of("bench"));
        args.forEach(arg -> arguments.add(arg.equals(terminationMessage.toString()) ? messagePath : arg));
        String name = "llmops-runner-" + pod.getMetadata().getUid();
        ProcessBuilder builder =
                new ProcessBuilder(podman.runCommand(name, options, image, arguments)).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(Podman.environment());
        try {
            int exitCode = RunnerProcess.runCopyingOutput(builder, log, process -> podman.kill(name, "KILL"));
            if (hostile) {
                log.println(SampleBombs.logLine(SampleBombs.numbersAsTokens()));
                log.flush();
            }
            return exitCode;
        } finally {
            // A cancelled pod's thread is interrupted; the container is removed all the same.
            boolean interrupted = Thread.interrupted();
            podman.remove(name);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The container's user is not the test's: like the kubelet's, the file is open to it. */
    private static Path writableByAnyone(Path file) {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
            return file.toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
