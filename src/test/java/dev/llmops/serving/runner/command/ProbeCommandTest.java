package dev.llmops.serving.runner.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.llmops.serving.cli.Cli;
import dev.llmops.serving.simulator.Fault;
import dev.llmops.serving.simulator.SglangSimulator;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The probe tool against a real simulated server: only a real generation makes it succeed. */
class ProbeCommandTest {

    private static final String TRY_HELP = "Try 'llm-serving-operator probe --help' for more information.";

    @Test
    void aHealthyServerGenerates() {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .host("127.0.0.41")
                .model("Qwen/Qwen3-8B")
                .start()) {
            Cli.Run run = probe("--url", simulator.baseUrl().toString(), "--timeout", "10");

            assertThat(run.exitCode()).as(run.out()).isZero();
            assertThat(run.out())
                    .contains("GET /v1/models")
                    .contains("lists Qwen/Qwen3-8B")
                    .contains("POST /v1/chat/completions")
                    .contains("RESULT  generates");
            // the simulator records a request once its stream is closed, which may be just after the client has read it
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> !simulator.requests().isEmpty());
        }
    }

    @Test
    void aHalfReadyServerThatListsItsModelDoesNotPass() {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .host("127.0.0.42")
                .model("Qwen/Qwen3-8B")
                .fault(Fault.HALF_READY)
                .start()) {
            Cli.Run run = probe("--url", simulator.baseUrl().toString(), "--model", "Qwen/Qwen3-8B", "--timeout", "10");

            assertThat(run.exitCode()).isEqualTo(ProbeCommand.DOES_NOT_GENERATE);
            assertThat(run.out())
                    .contains("lists Qwen/Qwen3-8B")
                    .contains("FAILED: http_500")
                    .contains("RESULT  does not generate: generation failed with http_500 although /v1/models answers");
        }
    }

    @Test
    void nothingListeningIsReportedAsUnreachableWithTheCause() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }

        Cli.Run run = probe("--url", "http://127.0.0.1:" + closedPort, "--model", "Qwen/Qwen3-8B", "--timeout", "2");

        assertThat(run.exitCode()).isEqualTo(ProbeCommand.DOES_NOT_GENERATE);
        assertThat(run.out().lines().toList())
                .last()
                .isEqualTo("RESULT  unreachable: nothing answered at http://127.0.0.1:" + closedPort
                        + ": connection refused: nothing is listening on that port");
        assertThat(run.out()).doesNotContain("listed none").doesNotContain("POST /v1/chat/completions");
    }

    @Test
    void aModelListTooLargeToReadIsReportedAsSuchNotAsUnreachable() {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .host("127.0.0.45")
                .model("Qwen/Qwen3-8B")
                .fault(Fault.HUGE_BODY)
                .start()) {
            Cli.Run run = probe("--url", simulator.baseUrl().toString(), "--timeout", "30");

            assertThat(run.exitCode()).isEqualTo(ProbeCommand.DOES_NOT_GENERATE);
            assertThat(run.out()).contains("GET /v1/models").contains("answer too large");
            assertThat(run.out().lines().toList())
                    .last()
                    .isEqualTo("RESULT  response too large: " + simulator.baseUrl()
                            + " answered GET /v1/models with more than the probe reads (response body exceeds 1 MiB);"
                            + " the server is broken or hostile");
            assertThat(run.out()).doesNotContain("unreachable").doesNotContain("nothing answered");
        }
    }

    @Test
    void aModelTheServerDoesNotListFailsNamingTheListedOnes() {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .host("127.0.0.44")
                .model("Qwen/Qwen3-8B")
                .start()) {
            Cli.Run run =
                    probe("--url", simulator.baseUrl().toString(), "--model", "Qwen/Qwen3-32B", "--timeout", "10");

            assertThat(run.exitCode()).isEqualTo(ProbeCommand.DOES_NOT_GENERATE);
            assertThat(run.out().lines().toList())
                    .last()
                    .isEqualTo("RESULT  does not serve Qwen/Qwen3-32B: /v1/models lists only"
                            + " Qwen/Qwen3-8B, so no completion was tried; pass one of those as --model");
            assertThat(simulator.requests()).isEmpty();
        }
    }

    @Test
    void badFlagsExitWithTwoAndOneLineNamingTheOption() {
        Cli.Run noUrl = probe("--timeout", "5");
        assertThat(noUrl.exitCode()).isEqualTo(ProbeCommand.BAD_FLAGS);
        assertThat(noUrl.errLines())
                .containsExactly("llm-serving-operator probe: Missing required option: '--url=URL'", TRY_HELP);

        Cli.Run noScheme = probe("--url", "127.0.0.1:30000");
        assertThat(noScheme.exitCode()).isEqualTo(ProbeCommand.BAD_FLAGS);
        assertThat(noScheme.errLines())
                .containsExactly(
                        "llm-serving-operator probe: Invalid value for option '--url': 127.0.0.1:30000"
                                + " is not a server URL: it needs http:// or https:// and a host, e.g. "
                                + "http://10.0.0.5:30000",
                        TRY_HELP);

        Cli.Run zeroTimeout = probe("--url", "http://127.0.0.1:30000", "--timeout", "0");
        assertThat(zeroTimeout.exitCode()).isEqualTo(ProbeCommand.BAD_FLAGS);
        assertThat(zeroTimeout.errLines())
                .containsExactly(
                        "llm-serving-operator probe: Invalid value for option '--timeout': 0 is below 1 second",
                        TRY_HELP);

        Cli.Run unsetKey =
                probe("--url", "http://127.0.0.1:30000", "--api-key-env", "LLMOPS_PROBE_TEST_UNSET_VARIABLE");
        assertThat(unsetKey.exitCode()).isEqualTo(ProbeCommand.BAD_FLAGS);
        assertThat(unsetKey.errLines())
                .first()
                .asString()
                .contains("'--api-key-env': LLMOPS_PROBE_TEST_UNSET_VARIABLE is not set");
    }

    private static Cli.Run probe(String... args) {
        List<String> command = new ArrayList<>(List.of("probe"));
        command.addAll(List.of(args));
        return Cli.run(command.toArray(String[]::new));
    }
}
