package dev.llmops.serving.runner;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A tolerant reader of the Prometheus text exposition format (version 0.0.4, which OpenMetrics text also satisfies for
 * plain samples): it keeps only the wanted sample names, adding up and taking the maximum over their label sets, and
 * skips comments and any line it cannot read instead of failing, since the text comes from a server.
 */
final class PrometheusText {

    /** The series of one sample name: their sum, their maximum and how many there were. */
    record Aggregate(double sum, double max, int series) {
        Aggregate plus(double value) {
            return new Aggregate(sum + value, Math.max(max, value), series + 1);
        }
    }

    /**
     * What one exposition held.
     *
     * @param samples the wanted names found
     * @param validLines sample lines read, wanted or not
     * @param skippedLines lines that were neither comments, blank nor readable samples
     */
    record Scrape(Map<String, Aggregate> samples, int validLines, int skippedLines) {

        Double sum(String name) {
            Aggregate aggregate = samples.get(name);
            return aggregate == null ? null : aggregate.sum();
        }

        Double max(String name) {
            Aggregate aggregate = samples.get(name);
            return aggregate == null ? null : aggregate.max();
        }
    }

    private PrometheusText() {}

    static Scrape parse(CharSequence text, Set<String> wanted) {
        Map<String, Aggregate> samples = new HashMap<>();
        int valid = 0;
        int skipped = 0;
        int lineStart = 0;
        int length = text.length();
        while (lineStart < length) {
            int lineEnd = lineStart;
            while (lineEnd < length && text.charAt(lineEnd) != '\n') {
                lineEnd++;
            }
            int kind = readLine(text, lineStart, lineEnd, wanted, samples);
            if (kind > 0) {
                valid++;
            } else if (kind < 0) {
                skipped++;
            }
            lineStart = lineEnd + 1;
        }
        return new Scrape(Map.copyOf(samples), valid, skipped);
    }

    /** 1 for a sample line, 0 for a blank or comment line, -1 for a line that could not be read. */
    private static int readLine(
            CharSequence text, int start, int end, Set<String> wanted, Map<String, Aggregate> samples) {
        int i = skipSpaces(text, start, end);
        if (i == end || text.charAt(i) == '#') {
            return 0;
        }
        int nameStart = i;
        if (!isNameStart(text.charAt(i))) {
            return -1;
        }
        while (i < end && isNameChar(text.charAt(i))) {
            i++;
        }
        String name = text.subSequence(nameStart, i).toString();
        if (i < end && text.charAt(i) == '{') {
            i = skipLabels(text, i + 1, end);
            if (i < 0) {
                return -1;
            }
        }
        if (i == end || text.charAt(i) != ' ' && text.charAt(i) != '\t') {
            return -1;
        }
        i = skipSpaces(text, i, end);
        int valueStart = i;
        while (i < end && text.charAt(i) != ' ' && text.charAt(i) != '\t' && text.charAt(i) != '\r') {
            i++;
        }
        Double value = number(text.subSequence(valueStart, i).toString());
        if (value == null) {
            return -1;
        }
        if (wanted.contains(name) && !value.isNaN()) {
            samples.merge(name, new Aggregate(value, value, 1), (old, added) -> old.plus(added.sum()));
        }
        return 1;
    }

    /** The index after the closing brace of a label set starting at {@code i}, or -1 when it is malformed. */
    private static int skipLabels(CharSequence text, int i, int end) {
        boolean inValue = false;
        while (i < end) {
            char c = text.charAt(i);
            if (inValue) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inValue = false;
                }
            } else if (c == '"') {
                inValue = true;
            } else if (c == '}') {
                return i + 1;
            }
            i++;
        }
        return -1;
    }

    private static Double number(String token) {
        switch (token) {
            case "+Inf", "Inf" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-Inf" -> {
                return Double.NEGATIVE_INFINITY;
            }
            case "NaN" -> {
                return Double.NaN;
            }
            default -> {
                if (token.isEmpty() || token.length() > 64) {
                    return null;
                }
                for (int i = 0; i < token.length(); i++) {
                    char c = token.charAt(i);
                    if (!(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) {
                        return null;
                    }
                }
                try {
                    return Double.parseDouble(token);
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
    }

    private static int skipSpaces(CharSequence text, int i, int end) {
        while (i < end && (text.charAt(i) == ' ' || text.charAt(i) == '\t' || text.charAt(i) == '\r')) {
            i++;
        }
        return i;
    }

    private static boolean isNameStart(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':';
    }

    private static boolean isNameChar(char c) {
        return isNameStart(c) || c >= '0' && c <= '9';
    }
}
