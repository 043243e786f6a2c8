package dev.llmops.serving.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The demo's own options fail in one line naming the option and the value, before anything starts. */
class DemoOptionsTest {

    private static final String TRY_HELP = "Try 'llm-serving-operator demo --help' for more information.";

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            --port     | 99999 | 99999 is not a port number (0 to 65535; 0 picks a free one)
            --timeout  | 0     | 0 is below 1 second
            """)
    void aBadValueIsOneLineNamingTheOption(String option, String value, String problem) {
        Cli.Run run = Cli.run("demo", option, value);

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines())
                .containsExactly(
                        "llm-serving-operator demo: Invalid value for option '" + option + "': " + problem, TRY_HELP);
    }

    @Test
    void anUnknownScenarioNamesTheScenarios() {
        Cli.Run run = Cli.run("demo", "--scenario", "full");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines())
                .containsExactly(
                        "llm-serving-operator demo: Invalid value for option '--scenario': full is not a scenario: use"
                                + " one of speculative-decoding, broken-draft, half-ready, experiment",
                        TRY_HELP);
    }

    @Test
    void aPortInUseSaysSoAndWhatToDo() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Cli.Run run = Cli.run("demo", "--port", String.valueOf(taken.getLocalPort()));

            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.errLines())
                    .containsExactly(
                            "llm-serving-operator demo: cannot start the embedded Kubernetes API" + " on port "
                                    + taken.getLocalPort() + ": Address already in use; choose another --port",
                            TRY_HELP);
        }
    }
}
