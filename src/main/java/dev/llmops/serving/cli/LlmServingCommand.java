package dev.llmops.serving.cli;

import dev.llmops.serving.runner.command.BenchCommand;
import dev.llmops.serving.runner.command.ProbeCommand;
import io.quarkus.picocli.runtime.PicocliRunner;
import io.quarkus.picocli.runtime.annotations.TopCommand;
import io.quarkus.runtime.Quarkus;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The one executable: the operator by default, plus the bench, probe, simulate, demo, report and validate tools. */
@TopCommand
@Command(
        name = "llm-serving-operator",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Runs SGLang servers on NVIDIA Blackwell GPUs under Kubernetes and benchmarks them.",
        subcommands = {
            OperatorCommand.class,
            BenchCommand.class,
            ProbeCommand.class,
            SimulateCommand.class,
            DemoCommand.class,
            ReportCommand.class,
            ValidateCommand.class
        })
public class LlmServingCommand implements Callable<Integer> {

    /**
     * The tools that use nothing of Quarkus (no injection, no configuration, no HTTP server, no metrics): they run on
     * picocli alone, as their tests run them. Starting Quarkus for them (its container, Vert.x, the metrics registry,
     * the HTTP server on a random port, the operator SDK's controller configurations) cost more than half of their
     * start-up. The operator, `demo` (which runs the operator) and `--version` (Quarkus's configuration) start Quarkus.
     */
    static final Set<String> STANDALONE_COMMANDS = Set.of("bench", "probe", "simulate", "report", "validate");

    @Option(names = "--verbose", description = "Without a command: the operator's --verbose.")
    boolean verbose;

    @Spec
    CommandSpec spec;

    /** The executable's entry point (quarkus.package.main-class): a tool on its own, anything else in Quarkus. */
    public static void main(String... args) {
        if (standalone(args)) {
            TlsWarmUp.startFor(args);
            System.exit(CommandLines.configure(new CommandLine(new LlmServingCommand()))
                    .execute(args));
        }
        Quarkus.run(PicocliRunner.class, args);
    }

    /** A standalone tool, or the top-level help: picocli alone is enough. */
    static boolean standalone(String... args) {
        if (args.length == 0) {
            return false;
        }
        if (args.length == 1 && List.of("-h", "--help").contains(args[0])) {
            return true;
        }
        return STANDALONE_COMMANDS.contains(args[0]);
    }

    /**
     * Without a subcommand the executable is the operator, as the container image runs it: the `operator` subcommand
     * picocli already created. Nothing of the operator is built before this runs, so the other commands never pay for
     * it.
     */
    @Override
    public Integer call() {
        OperatorCommand operator =
                (OperatorCommand) spec.subcommands().get("operator").getCommand();
        operator.verbose |= verbose;
        return operator.call();
    }
}
