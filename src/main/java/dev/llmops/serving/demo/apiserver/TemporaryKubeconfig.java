package dev.llmops.serving.demo.apiserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/** A kubeconfig for the embedded API that only its owner can read, and that is gone when the demo ends. */
public final class TemporaryKubeconfig implements AutoCloseable {

    private final Path path;

    public TemporaryKubeconfig(EmbeddedKubernetes kubernetes) {
        try {
            FileAttribute<?>[] ownerOnly =
                    FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                            ? new FileAttribute<?>[] {
                                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))
                            }
                            : new FileAttribute<?>[0];
            this.path = kubernetes.writeKubeconfig(Files.createTempFile("llm-serving-demo", ".kubeconfig", ownerOnly));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path path() {
        return path;
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(path);
    }
}
