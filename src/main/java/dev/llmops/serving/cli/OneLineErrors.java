package dev.llmops.serving.cli;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/** Reports a bad command line in one line plus a pointer to --help, instead of a page of usage that hides the error. */
public final class OneLineErrors implements IParameterExceptionHandler {

    /** Makes {@code commandLine} and its subcommands report bad arguments this way; returns it. */
    public static CommandLine install(CommandLine commandLine) {
        return commandLine.setParameterExceptionHandler(new OneLineErrors());
    }

    @Override
    public int handleParseException(ParameterException error, String[] args) {
        CommandLine command = error.getCommandLine();
        String name = command.getCommandSpec().qualifiedName();
        PrintWriter err = command.getErr();
        err.println(name + ": " + error.getMessage() + suggestions(error));
        err.println("Try '" + name + " --help' for more information.");
        err.flush();
        return command.getCommandSpec().exitCodeOnInvalidInput();
    }

    private static String suggestions(ParameterException error) {
        if (!(error instanceof UnmatchedArgumentException unmatched)) {
            return "";
        }
        List<String> similar = unmatched.getSuggestions();
        return similar.isEmpty()
                ? ""
                : " (did you mean " + String.join(" or ", similar.subList(0, Math.min(3, similar.size()))) + "?)";
    }
}
