package dev.llmops.serving.cli;

import picocli.CommandLine.Command;

/** Placeholder until the demo tool lands; exits with the configuration-error code. */
@Command(name = "demo", mixinStandardHelpOptions = true, description = "Run the whole flow on an embedded Kubernetes API.")
public class DemoCommand implements java.util.concurrent.Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("demo: not available in this build yet");
        return 2;
    }
}
