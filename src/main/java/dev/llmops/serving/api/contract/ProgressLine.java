package dev.llmops.serving.api.contract;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one format of the PROGRESS lines the runner prints and the BenchmarkRun controller reads back from the pod log:
 * {@code PROGRESS <done>/<total> <stage>} when a stage starts, {@code PROGRESS <total>/<total>} when all are done.
 */
public final class ProgressLine {

    /** Longest stage text written or accepted; the log is untrusted, so what is parsed stays short. */
    public static final int MAX_STAGE_CHARS = 32;

    private static final int MAX_COUNT_DIGITS = 6;
    private static final String PREFIX = "PROGRESS ";
    private static final int MAX_LINE_CHARS = PREFIX.length() + 2 * MAX_COUNT_DIGITS + 2 + MAX_STAGE_CHARS;
    private static final Pattern LINE = Pattern.compile("PROGRESS (\\d{1," + MAX_COUNT_DIGITS + "})/(\\d{1,"
            + MAX_COUNT_DIGITS + "})(?: ([\\x21-\\x7E]{1," + MAX_STAGE_CHARS + "}))?");

    private ProgressLine() {}

    /**
     * {@code done} of {@code total} stages finished and {@code stage} running; the stage cut to what a reader accepts.
     */
    public static String running(int done, int total, String stage) {
        String printable = stage.replaceAll("[^\\x21-\\x7E]", "?");
        return PREFIX + done + "/" + total + " "
                + (printable.length() > MAX_STAGE_CHARS ? printable.substring(0, MAX_STAGE_CHARS) : printable);
    }

    /** All {@code total} stages finished. */
    public static String finished(int total) {
        return PREFIX + total + "/" + total;
    }

    /** {@code "2/5 c16"} or {@code "5/5"} from a line in this format; empty for any other line. */
    public static Optional<String> parse(String line) {
        String text = line.strip();
        if (text.length() > MAX_LINE_CHARS) {
            return Optional.empty();
        }
        Matcher matcher = LINE.matcher(text);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        int done = Integer.parseInt(matcher.group(1));
        int total = Integer.parseInt(matcher.group(2));
        if (total < 1 || done > total) {
            return Optional.empty();
        }
        return Optional.of(done + "/" + total + (matcher.group(3) == null ? "" : " " + matcher.group(3)));
    }
}
