package dev.llmops.serving.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.runner.command.BenchCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** An argument beginning with {@code @} is text, never the name of a file whose contents replace it. */
class AtFileArgumentsTest {

    @Test
    void aPromptBeginningWithAtIsSentAsWritten(@TempDir Path directory) throws IOException {
        Path file = Files.writeString(directory.resolve("token"), "contents of a file in the runner's pod\n");
        String prompt = "@" + file;

        ParseResult parsed = CommandLines.configure(new CommandLine(new LlmServingCommand()))
                .parseArgs(
                        "bench",
                        "--url",
                        "http://127.0.0.1:1",
                        "--model",
                        "m",
                        "--prompts",
                        prompt,
                        "--prompts",
                        "@nowhere");
        BenchCommand bench = (BenchCommand) parsed.subcommand().commandSpec().userObject();

        assertThat(bench.prompts).containsExactly(prompt, "@nowhere");
    }
}
