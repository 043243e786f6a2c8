package dev.llmops.serving.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.runner.command.ProbeCommand;
import dev.llmops.serving.simulator.Fault;
import dev.llmops.serving.simulator.SglangSimulator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe in a JVM of its own, started as the packaged executable starts a standalone tool (its main class, the
 * classes of this build), with a 128 MiB heap that ends the process on the first OutOfMemoryError, as the operator's
 * image does: a server sending one endless {@code data:} line must cost a failed probe with a reason, not the process.
 */
class ProbeInSmallHeapTest {

    private static final long PROCESS_SECONDS = 120;

    @Test
    void anEndlessDataLineFailsTheProbeWithAReasonInsteadOfExhaustingTheHeap(@TempDir Path dir)
            throws IOException, InterruptedException {
        try (SglangSimulator simulator = SglangSimulator.builder()
                .host("127.0.0.63")
                .model("Qwen/Qwen3-8B")
                .fault(Fault.ENDLESS_LINE)
                .start()) {
            Path out = dir.resolve("out.txt");
            Process probe = new ProcessBuilder(List.of(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-Xmx128m",
                            "-XX:+ExitOnOutOfMemoryError",
                            "-XX:TieredStopAtLevel=1",
                            "-cp",
                            System.getProperty("java.class.path"),
                            LlmServingCommand.class.getName(),
                            "probe",
                            "--url",
                            simulator.baseUrl().toString(),
                            "--timeout",
                            "60"))
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            boolean exited = probe.waitFor(PROCESS_SECONDS, TimeUnit.SECONDS);
            if (!exited) {
                probe.destroyForcibly().waitFor();
            }
            String output = Files.readString(out, StandardCharsets.UTF_8);

            assertThat(exited)
                    .as("the probe ended within %d s: %s", PROCESS_SECONDS, output)
                    .isTrue();
            assertThat(output)
                    .as("exit code %d", probe.exitValue())
                    .doesNotContain("OutOfMemoryError")
                    .contains("FAILED: too_large response line exceeds 1 MiB after 0 chunks")
                    .contains(
                            "RESULT  does not generate: generation failed with too_large although /v1/models answers");
            // 3 is also the exit code -XX:+ExitOnOutOfMemoryError gives, hence the output's check above
            assertThat(probe.exitValue()).isEqualTo(ProbeCommand.DOES_NOT_GENERATE);
        }
    }
}
