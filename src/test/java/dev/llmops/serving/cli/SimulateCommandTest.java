package dev.llmops.serving.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.simulator.Fault;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The simulate command refuses values the simulator cannot use, naming the option, before it binds anything. */
class SimulateCommandTest {

    private static final String TRY_HELP = "Try 'llm-serving-operator simulate --help' for more information.";

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--port 99999|Invalid value for option '--port': 99999 is not a port number (0 to 65535; 0 picks a "
                        + "free one)",
                "--port -1|Invalid value for option '--port': -1 is not a port number (0 to 65535; 0 picks a free one)",
                "--ttft-ms -5|Invalid value for option '--ttft-ms': -5 is negative; use 0 or more",
                "--token-delay-ms -0.5|Invalid value for option '--token-delay-ms': -0.5 is negative; use 0 or more",
                "--batch-slowdown -0.1|Invalid value for option '--batch-slowdown': -0.1 is not a finite number of 0 or"
                        + " more",
                "--tokens-per-chunk 0|Invalid value for option '--tokens-per-chunk': 0 is below 1",
                "--prefix-cache-blocks -1|Invalid value for option '--prefix-cache-blocks': -1 is not between 0 and"
                        + " 1048576",
                "--prefix-cache-block-tokens 0|Invalid value for option '--prefix-cache-block-tokens': 0 is not"
                        + " between 1 and 4096",
                "--error-rate 1.5|Invalid value for option '--error-rate': 1.5 is not a fraction between 0 and 1",
                "--duration-seconds 0|Invalid value for option '--duration-seconds': 0 is not a positive number of "
                        + "seconds",
                "--port abc|Invalid value for option '--port': 'abc' is not an int",
                "--spec-accept 0.2,0.3|Invalid value for option '--spec-accept': 0.2,0.3 is not a distribution: the"
                        + " probabilities must add up to 1, they add up to 0.5",
                "--spec-accept 0.5,x|Invalid value for option '--spec-accept' (P1,P2,...): 'x' is not a" + " double",
                "--fault broken|Invalid value for option '--fault': expected none, half-ready, hang, disconnect,"
                        + " broken-draft, endless-line, endless-event, huge-body, slow-drip, got broken",
                "--spec-accept 1 --tokens-per-chunk 2|Invalid value for option '--spec-accept': 1 sets the tokens per"
                        + " chunk: drop --tokens-per-chunk"
            })
    void aBadValueIsOneLineNamingTheOption(String options, String message) {
        Cli.Run run = Cli.run(("simulate " + options).split(" "));

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).containsExactly("llm-serving-operator simulate: " + message, TRY_HELP);
    }

    @Test
    void faultsAreNamedInLowerCaseWithHyphensOrAsTheirConstants() {
        SimulateCommand.FaultConverter converter = new SimulateCommand.FaultConverter();

        assertThat(converter.convert("broken-draft")).isEqualTo(Fault.BROKEN_DRAFT);
        assertThat(converter.convert("HALF_READY")).isEqualTo(Fault.HALF_READY);
    }

    @Test
    void aPortInUseSaysSoAndWhatToChange() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Cli.Run run = Cli.run("simulate", "--host", "127.0.0.1", "--port", String.valueOf(taken.getLocalPort()));

            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.errLines())
                    .containsExactly(
                            "llm-serving-operator simulate: cannot listen on 127.0.0.1:" + taken.getLocalPort()
                                    + ": Address already in use; choose another --port or --host",
                            TRY_HELP);
        }
    }
}
