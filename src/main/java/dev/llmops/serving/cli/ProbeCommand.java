package dev.llmops.serving.cli;

import picocli.CommandLine.Command;

/** Placeholder until the probe tool lands; exits with the configuration-error code. */
@Command(name = "probe", mixinStandardHelpOptions = true, description = "Check what each endpoint of an SGLang server proves.")
public class ProbeCommand implements java.util.concurrent.Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("probe: not available in this build yet");
        return 2;
    }
}
