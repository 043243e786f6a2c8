package dev.llmops.serving.cli;

import io.quarkus.picocli.runtime.PicocliCommandLineFactory;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import picocli.CommandLine;

/** The executable's command line: the one quarkus-picocli builds from the top command, set up by CommandLines. */
@Singleton
public class CommandLineProducer {

    @Produces
    @Singleton
    CommandLine commandLine(PicocliCommandLineFactory factory) {
        return CommandLines.configure(factory.create());
    }
}
