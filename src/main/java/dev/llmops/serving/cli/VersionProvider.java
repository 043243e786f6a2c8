package dev.llmops.serving.cli;

import org.eclipse.microprofile.config.ConfigProvider;
import picocli.CommandLine.IVersionProvider;

/** Reports the application version Quarkus was built with. */
public class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {
            ConfigProvider.getConfig()
                    .getOptionalValue("quarkus.application.version", String.class)
                    .orElse("unknown")
        };
    }
}
