package dev.llmops.serving.cli;

import io.javaoperatorsdk.operator.Operator;
import io.quarkus.runtime.Quarkus;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import picocli.CommandLine.Command;

/** Starts the controllers; the only subcommand that talks to a cluster on its own. */
@Dependent
@Command(name = "operator", mixinStandardHelpOptions = true,
        description = "Run the ModelServer and BenchmarkRun controllers against the current cluster (the default).")
public class OperatorCommand implements Runnable {

    @Inject
    Operator operator;

    @Override
    public void run() {
        operator.start();
        Quarkus.waitForExit();
    }
}
