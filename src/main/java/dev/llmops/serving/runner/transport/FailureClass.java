package dev.llmops.serving.runner.transport;

/** Names of the ways a request can fail; reports count failures under these keys. */
public final class FailureClass {

    /** The connection could not be opened (refused, unreachable, connect timeout, a failed TLS handshake). */
    public static final String CONNECT = "connect";
    /** The request's timeout elapsed before the answer was complete. */
    public static final String TIMEOUT = "timeout";
    /** The connection broke or the stream ended before the server said it was done. */
    public static final String DISCONNECT = "disconnect";
    /** The server said it was done without sending a single token. */
    public static final String EMPTY_OUTPUT = "empty_output";
    /** The server sent an error object without an HTTP status code inside a stream that had started with 200. */
    public static final String STREAM_ERROR = "stream_error";
    /** The server answered 200 with a body that is not an OpenAI-compatible completion. */
    public static final String BAD_RESPONSE = "bad_response";
    /**
     * A line, event, body or chunk count of the answer went past the client's cap: no real server sends that much, so
     * the server is broken or hostile, and reading on would only exhaust the client's memory.
     */
    public static final String TOO_LARGE = "too_large";

    private FailureClass() {}

    /** The class of an exception that stopped a request before any response: connect, timeout or disconnect. */
    public static String of(Throwable error) {
        Throwable cause = rootOf(error);
        if (cause instanceof ResponseTooLarge) {
            return TOO_LARGE;
        }
        if (handshakeFailure(error) != null) {
            return CONNECT;
        }
        if (cause instanceof java.net.http.HttpConnectTimeoutException
                || cause instanceof java.net.ConnectException
                || cause instanceof io.netty.channel.ConnectTimeoutException
                || cause instanceof java.nio.channels.UnresolvedAddressException
                || cause instanceof java.net.UnknownHostException) {
            return CONNECT;
        }
        return cause instanceof java.net.http.HttpTimeoutException ? TIMEOUT : DISCONNECT;
    }

    /** Why no response arrived, in words a user can act on: refused, unknown host, unreachable or timed out. */
    public static String reason(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.nio.channels.UnresolvedAddressException
                    || cause instanceof java.net.UnknownHostException) {
                return "the host name does not resolve";
            }
            if (cause instanceof java.net.http.HttpConnectTimeoutException
                    || cause instanceof io.netty.channel.ConnectTimeoutException) {
                return "connecting timed out: the host is down, unreachable or behind a firewall";
            }
        }
        Throwable handshake = handshakeFailure(error);
        if (handshake != null) {
            return "TLS handshake failed: " + handshake.getMessage();
        }
        Throwable root = rootOf(error);
        if (root instanceof ResponseTooLarge) {
            return root.getMessage();
        }
        if (root instanceof java.net.ConnectException) {
            return "connection refused: nothing is listening on that port";
        }
        return root instanceof java.net.http.HttpTimeoutException ? "no response before the timeout" : describe(root);
    }

    /** The handshake failure in the chain (the JDK client and Netty each wrap it in their own exception), or null. */
    private static Throwable handshakeFailure(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof javax.net.ssl.SSLHandshakeException) {
                return cause;
            }
        }
        return null;
    }

    /** An exception as its simple class name and message, for failures without a plainer reason. */
    static String describe(Throwable error) {
        String message = error.getMessage();
        return error.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /** The exception inside the CompletionException or ExecutionException wrappers of a future. */
    static Throwable rootOf(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof java.util.concurrent.CompletionException
                        || cause instanceof java.util.concurrent.ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** An HTTP error status, or an error object with that code inside a stream: {@code http_503}. */
    public static String http(int status) {
        return "http_" + status;
    }
}
