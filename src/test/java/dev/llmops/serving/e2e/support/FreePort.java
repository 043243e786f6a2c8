package dev.llmops.serving.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** A loopback port no one listens on now, for a process the suite or a benchmark starts. */
public final class FreePort {

    private FreePort() {}

    public static int any() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
