package dev.llmops.serving.runner.transport;

import java.io.IOException;

/** An answer went past one of the client's caps; the message says which ("response body exceeds 1 MiB"). */
final class ResponseTooLarge extends IOException {

    ResponseTooLarge(String what, long limitBytes) {
        super(what + " exceeds " + size(limitBytes));
    }

    /** A cap in words: "1 MiB", "16 MiB", "512 KiB", or bytes when it is not a whole KiB. */
    static String size(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return bytes / (1 << 20) + " MiB";
        }
        return bytes >= 1024 && bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " bytes";
    }
}
