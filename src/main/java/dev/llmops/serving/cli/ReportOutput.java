package dev.llmops.serving.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;

/** Where a report command writes its report: --output, else standard output; a failure is one line and exit code 1. */
final class ReportOutput {

    static final int WRITE_FAILED = 1;

    private ReportOutput() {}

    /** Writes {@code report} and returns 0, or says why it could not on standard error and returns 1. */
    static int write(CommandSpec spec, String command, String report, Path output) {
        try {
            if (output == null) {
                spec.commandLine().getOut().print(report);
                spec.commandLine().getOut().flush();
            } else {
                Files.writeString(output, report);
            }
            return 0;
        } catch (IOException e) {
            spec.commandLine().getErr().println(command + ": cannot write " + output + ": " + e.getMessage());
            return WRITE_FAILED;
        }
    }
}
