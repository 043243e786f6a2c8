package dev.llmops.serving.cli;

import io.quarkus.picocli.runtime.annotations.TopCommand;
import jakarta.inject.Inject;
import picocli.CommandLine.Command;

/** The one executable: the operator by default, plus the benchmark, probe, simulator and demo tools. */
@TopCommand
@Command(name = "llm-serving-operator", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Runs SGLang servers on NVIDIA Blackwell GPUs under Kubernetes and benchmarks them.",
        subcommands = {OperatorCommand.class, BenchCommand.class, ProbeCommand.class, SimulateCommand.class, DemoCommand.class,
                ReportCommand.class})
public class LlmServingCommand implements Runnable {

    @Inject
    OperatorCommand operator;

    /** Without a subcommand the executable is the operator, as the container image runs it. */
    @Override
    public void run() {
        operator.run();
    }
}
