package dev.llmops.serving.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/** Runs the executable's command line in-process, parsed from the top command as the packaged jar parses it. */
public final class Cli {

    /** What a command left: its exit code and everything it printed on each stream. */
    public record Run(int exitCode, String out, String err) {

        public List<String> errLines() {
            return err.lines().toList();
        }
    }

    private Cli() {}

    public static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine command = CommandLines.configure(new CommandLine(new LlmServingCommand()));
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        int code = command.execute(args);
        return new Run(code, out.toString(), err.toString());
    }
}
