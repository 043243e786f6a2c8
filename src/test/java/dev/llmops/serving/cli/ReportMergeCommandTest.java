package dev.llmops.serving.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What report merge says of input that is no shard's result: one line naming the file, exit code 2. */
class ReportMergeCommandTest {

    @TempDir
    Path directory;

    @Test
    void aFileWithoutAShardLineIsOneLineAndExitCodeTwo() throws IOException {
        Path log = Files.writeString(directory.resolve("shard-0.log"), "c8 8 64 0\nPROGRESS 1/1 done\n");

        Cli.Run run = Cli.run("report", "merge", log.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines())
                .containsExactly("report merge: " + log + ": no line begins with 'LLM-SERVING-SHARD v1'");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aTruncatedShardLineIsOneLineAndExitCodeTwo() throws IOException {
        Path log = Files.writeString(directory.resolve("shard-1.log"), "LLM-SERVING-SHARD v1 H4sIAAAAAAAA\n");

        Cli.Run run = Cli.run("report", "merge", log.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).singleElement().asString().startsWith("report merge: " + log + ": the shard line");
    }
}
