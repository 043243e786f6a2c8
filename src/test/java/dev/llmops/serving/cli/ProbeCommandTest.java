package dev.llmops.serving.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.simulator.Fault;
import dev.llmops.serving.simulator.SglangSimulator;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The probe tool against a real simulated server: only a real generation makes it succeed. */
class ProbeCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void aHealthyServerGenerates() {
        try (SglangSimulator simulator = SglangSimulator.builder().host("127.0.0.41").model("Qwen/Qwen3-8B").start()) {
            int exit = probe("--url", simulator.baseUrl().toString(), "--timeout", "10");

            assertThat(exit).as(out.toString()).isZero();
            assertThat(out.toString()).contains("GET /v1/models").contains("lists Qwen/Qwen3-8B")
                    .contains("POST /v1/chat/completions").contains("RESULT  generates");
            assertThat(simulator.requests()).isNotEmpty();
        }
    }

    @Test
    void aHalfReadyServerThatListsItsModelDoesNotPass() {
        try (SglangSimulator simulator = SglangSimulator.builder().host("127.0.0.42").model("Qwen/Qwen3-8B").fault(Fault.HALF_READY).start()) {
            int exit = probe("--url", simulator.baseUrl().toString(), "--model", "Qwen/Qwen3-8B", "--timeout", "10");

            assertThat(exit).isEqualTo(ProbeCommand.DOES_NOT_GENERATE);
            assertThat(out.toString()).contains("lists Qwen/Qwen3-8B").contains("FAILED: http_500")
                    .contains("RESULT  does not generate: generation failed with http_500 although /v1/models answers");
        }
    }

    @Test
    void nothingListeningIsNotProvenToGenerate() {
        int exit = probe("--url", "http://127.0.0.43:9", "--timeout", "2");

        assertThat(exit).isEqualTo(ProbeCommand.DOES_NOT_GENERATE);
        assertThat(out.toString()).contains("no answer (connect)").contains("no completion was tried");
    }

    @Test
    void badFlagsExitWithTwo() {
        assertThat(probe("--timeout", "5")).as("missing --url").isEqualTo(ProbeCommand.BAD_FLAGS);
        assertThat(probe("--url", "127.0.0.1:30000")).as("no scheme").isEqualTo(ProbeCommand.BAD_FLAGS);
        assertThat(probe("--url", "http://127.0.0.1:30000", "--timeout", "0")).isEqualTo(ProbeCommand.BAD_FLAGS);
        assertThat(probe("--url", "http://127.0.0.1:30000", "--api-key-env", "LLMOPS_PROBE_TEST_UNSET_VARIABLE")).isEqualTo(ProbeCommand.BAD_FLAGS);
        assertThat(err.toString()).contains("--url").contains("LLMOPS_PROBE_TEST_UNSET_VARIABLE");
    }

    private int probe(String... args) {
        CommandLine command = new CommandLine(new ProbeCommand());
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        return command.execute(args);
    }
}
