package dev.llmops.serving.cli;

import picocli.CommandLine.Command;

/** Placeholder until the simulate tool lands; exits with the configuration-error code. */
@Command(name = "simulate", mixinStandardHelpOptions = true, description = "Run an SGLang simulator for tests and demos.")
public class SimulateCommand implements java.util.concurrent.Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("simulate: not available in this build yet");
        return 2;
    }
}
