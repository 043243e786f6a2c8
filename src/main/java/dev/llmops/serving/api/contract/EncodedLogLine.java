package dev.llmops.serving.api.contract;

import java.util.Base64;
import java.util.function.Function;

/**
 * A result the runner prints as a line of its log, {@code <prefix><base64 of gzipped JSON>}, for the operator to read
 * back from the pod's log tail within a bound: the samples of a run, a shard's result.
 */
public final class EncodedLogLine {

    private EncodedLogLine() {}

    /**
     * Decodes the last line of {@code log} that starts with {@code prefix}, of at most {@code maxChars} after it, with
     * {@code decode}; null when the log has none.
     *
     * @throws IllegalArgumentException "{@code noun} exceeds ..." or "{@code noun} is unreadable: ..."
     */
    public static <T> T readLast(String log, String prefix, int maxChars, String noun, Function<byte[], T> decode) {
        if (log == null) {
            return null;
        }
        int start = log.lastIndexOf(prefix);
        if (start < 0) {
            return null;
        }
        int end = log.indexOf('\n', start);
        String encoded = log.substring(start + prefix.length(), end < 0 ? log.length() : end)
                .strip();
        if (encoded.length() > maxChars) {
            throw new IllegalArgumentException(noun + " exceeds " + maxChars + " characters");
        }
        try {
            return decode.apply(Base64.getDecoder().decode(encoded));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(noun + " is unreadable: " + e.getMessage(), e);
        }
    }
}
