package dev.llmops.serving.e2e.support;

import java.nio.file.Path;

/**
 * Files of the project checkout the suite reads, wherever the test JVM runs (failsafe passes the project directory).
 */
public final class ProjectPaths {

    private static final Path PROJECT = Path.of(System.getProperty("e2e.projectDir", "."));

    private ProjectPaths() {}

    public static Path resolve(String relative) {
        return PROJECT.resolve(relative);
    }
}
