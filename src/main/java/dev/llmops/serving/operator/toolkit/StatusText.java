package dev.llmops.serving.operator.toolkit;

/**
 * Bounds text that comes from outside the operator — a server's error, a log line, a kubelet message — before it goes
 * into a status, condition, event or pod condition, so a tenant's server cannot bloat the objects everyone reads.
 */
public final class StatusText {

    /** The most characters such a text keeps, the ellipsis that marks a cut included. */
    public static final int MAX_CHARS = 1024;

    private static final String CUT = "…";

    private StatusText() {}

    /** The text itself when it fits, else its first characters and an ellipsis, {@link #MAX_CHARS} in all. */
    public static String bounded(String text) {
        if (text == null || text.length() <= MAX_CHARS) {
            return text;
        }
        int end = MAX_CHARS - CUT.length();
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end) + CUT;
    }
}
