package dev.llmops.serving.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmops.serving.e2e.support.Podman;
import dev.llmops.serving.e2e.support.Processes;
import dev.llmops.serving.helm.RenderedChart;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built image run by a real container runtime (podman with runc) as a kubelet runs the chart's pod: the image's
 * entry point and JVM flags, the pod's user, a read-only root with /tmp as the chart's emptyDir, every capability
 * dropped, the chart's memory limit and environment. Whatever writes outside /tmp or needs root fails here first.
 */
class ContainerRuntimeIT {

    private static final Path TARBALL =
            Path.of(System.getProperty("image.tarball", "target/llm-serving-operator-image.tar"));
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(2);
    private static final String MODEL = "simulated/model";

    private static Podman podman;
    private static String image;
    /** The chart's pod as podman options. */
    private static List<String> asThePod;

    private static String simulatorName;
    private static Process simulator;
    private static int simulatorPort;

    @BeforeAll
    static void loadTheImageAndStartASimulator() throws IOException {
        podman = Podman.require();
        image = podman.load(TARBALL);
        PodSpec pod = RenderedChart.render(Map.of())
                .deployment()
                .getSpec()
                .getTemplate()
                .getSpec();
        asThePod = Podman.optionsOf(pod, pod.getContainers().get(0));
        System.out.println("image " + image + " runs with " + asThePod);

        simulatorPort = freePort();
        simulatorName = "llmops-simulator-" + ProcessHandle.current().pid();
        simulator = podman.start(
                simulatorName,
                asThePod,
                image,
                List.of(
                        "simulate",
                        "--port",
                        String.valueOf(simulatorPort),
                        "--ttft-ms",
                        "20",
                        "--token-delay-ms",
                        "2",
                        "--duration-seconds",
                        "300"),
                Path.of("target/image-runtime/simulator.log"));
        HttpClient http = HttpClient.newHttpClient();
        await("the simulator's container to answer /health")
                .atMost(RUN_TIMEOUT)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    assertThat(simulator.isAlive())
                            .as(
                                    "the simulator's container exited: %s",
                                    Files.readString(Path.of("target/image-runtime/simulator.log")))
                            .isTrue();
                    try {
                        return http.send(
                                                HttpRequest.newBuilder(URI.create(simulatorUrl() + "/health"))
                                                        .build(),
                                                HttpResponse.BodyHandlers.discarding())
                                        .statusCode()
                                == 200;
                    } catch (IOException e) {
                        return false;
                    }
                });
    }

    @AfterAll
    static void stopTheSimulator() {
        if (simulator != null) {
            Processes.stop(simulator, Duration.ofSeconds(20));
            podman.remove(simulatorName);
        }
    }

    @Test
    void runsAsTheImagesNonRootUser() {
        Podman.Result id = podman.run(List.of("--entrypoint", "id"), image, List.of(), RUN_TIMEOUT);

        assertThat(id.exitCode()).as(id.output()).isZero();
        assertThat(id.output()).startsWith("uid=10001").contains("gid=10001");
    }

    @Test
    void printsItsUsageAndVersionAsThePod() {
        Podman.Result help = podman.run(asThePod, image, List.of("--help"), RUN_TIMEOUT);
        Podman.Result version = podman.run(asThePod, image, List.of("--version"), RUN_TIMEOUT);

        assertThat(help.exitCode()).as(help.output()).isZero();
        assertThat(help.output()).contains("operator").contains("bench").contains("simulate");
        assertThat(version.exitCode()).as(version.output()).isZero();
        assertThat(version.output()).contains(System.getProperty("project.version", "0.1.0"));
    }

    @Test
    void benchmarksASimulatorInAnotherContainerIntoAMountedDirectory(@TempDir Path results) throws IOException {
        Files.setPosixFilePermissions(results, PosixFilePermissions.fromString("rwxrwxrwx"));
        List<String> options = new ArrayList<>(asThePod);
        options.addAll(List.of("--volume", results + ":/results"));

        Podman.Result bench = podman.run(
                options,
                image,
                List.of(
                        "bench",
                        "--url",
                        simulatorUrl(),
                        "--model",
                        MODEL,
                        "--concurrency",
                        "2",
                        "--requests-per-level",
                        "8",
                        "--max-tokens",
                        "16",
                        "--json-out",
                        "/results/result.json"),
                RUN_TIMEOUT);

        assertThat(bench.exitCode()).as(bench.output()).isZero();
        JsonNode result =
                new ObjectMapper().readTree(results.resolve("result.json").toFile());
        JsonNode level = result.path("stages").get(result.path("stages").size() - 1);
        assertThat(level.path("name").asText()).isEqualTo("c2");
        assertThat(level.path("completed").asInt()).isEqualTo(8);
        assertThat(level.path("failed").asInt()).isZero();
    }

    @Test
    void probesASimulatorInAnotherContainer() {
        Podman.Result probe =
                podman.run(asThePod, image, List.of("probe", "--url", simulatorUrl(), "--model", MODEL), RUN_TIMEOUT);
        Podman.Result nothingThere =
                podman.run(asThePod, image, List.of("probe", "--url", "http://127.0.0.1:" + freePort()), RUN_TIMEOUT);

        assertThat(probe.exitCode()).as(probe.output()).isZero();
        assertThat(nothingThere.exitCode()).as(nothingThere.output()).isEqualTo(3);
    }

    private static String simulatorUrl() {
        return "http://127.0.0.1:" + simulatorPort;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
