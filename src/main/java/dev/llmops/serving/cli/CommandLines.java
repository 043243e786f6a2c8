package dev.llmops.serving.cli;

import picocli.CommandLine;

/**
 * The settings every command line of the executable shares, whoever builds it (the entry point, Quarkus, the demo's
 * kubelet stand-in): arguments are taken literally and bad ones are reported in one line.
 */
public final class CommandLines {

    private CommandLines() {}

    /**
     * Configures {@code commandLine} and its subcommands; returns it. Picocli would otherwise replace an argument
     * {@code @path} by the contents of that file: a prompt beginning with {@code @} (user text that reaches the
     * runner's command line) would read a file of the runner's pod instead of being sent as written.
     */
    public static CommandLine configure(CommandLine commandLine) {
        commandLine.setExpandAtFiles(false);
        return OneLineErrors.install(commandLine);
    }
}
