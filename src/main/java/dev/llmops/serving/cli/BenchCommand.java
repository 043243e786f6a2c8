package dev.llmops.serving.cli;

import picocli.CommandLine.Command;

/** Placeholder until the bench tool lands; exits with the configuration-error code. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmark an OpenAI-compatible server.")
public class BenchCommand implements java.util.concurrent.Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("bench: not available in this build yet");
        return 2;
    }
}
