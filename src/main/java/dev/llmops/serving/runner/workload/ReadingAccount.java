package dev.llmops.serving.runner.workload;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What reading an untrusted dataset file kept and skipped, by reason, and where it stopped early: the warning a person
 * reads, worded alike for every dataset file. Also opens such a file, refusing one over its size limit unread.
 */
final class ReadingAccount {

    private final String source;
    private final String kept;
    private final String read;
    private final Map<String, Integer> skipped = new TreeMap<>();
    private int entries;
    private String stoppedEarly;

    /**
     * @param source the file's name in messages
     * @param kept what a usable entry is called, plural ({@code conversations})
     * @param read what an entry read is called, plural ({@code records})
     */
    ReadingAccount(String source, String kept, String read) {
        this.source = source;
        this.kept = kept;
        this.read = read;
    }

    /**
     * Opens {@code file} of a dataset of {@code kind} ({@code dataset}, {@code trace}).
     *
     * @throws IllegalArgumentException when it is over {@code maxBytes}; the message completes a sentence starting
     *     with the file's name
     */
    static InputStream open(Path file, long maxBytes, String kind) throws IOException {
        if (Files.isRegularFile(file) && Files.size(file) > maxBytes) {
            throw new IllegalArgumentException(
                    "is " + Files.size(file) + " bytes, more than the " + maxBytes + " read from a " + kind + " file");
        }
        return Files.newInputStream(file);
    }

    /** One more entry read, kept or not. */
    void read() {
        entries++;
    }

    void skip(String reason) {
        skipped.merge(reason, 1, Integer::sum);
    }

    void stop(String why) {
        stoppedEarly = why;
    }

    Map<String, Integer> skipped() {
        return Map.copyOf(skipped);
    }

    /** The warning of a reading that skipped entries or stopped early, under {@code label}; empty when neither. */
    List<String> warnings(String label, int usable) {
        if (skipped.isEmpty() && stoppedEarly == null) {
            return List.of();
        }
        return List.of(label + " " + source + ": " + text(usable));
    }

    /** {@code 7 usable conversations of 9 records read; 2 skipped (2 no reply after the user turn)}, and the stop. */
    String text(int usable) {
        int skippedEntries =
                skipped.values().stream().mapToInt(Integer::intValue).sum();
        String text = usable + " usable " + kept + " of " + entries + " " + read + " read";
        if (skippedEntries > 0) {
            text += "; " + skippedEntries + " skipped ("
                    + skipped.entrySet().stream()
                            .map(entry -> entry.getValue() + " " + entry.getKey())
                            .collect(Collectors.joining(", "))
                    + ")";
        }
        return stoppedEarly == null ? text : text + "; " + stoppedEarly;
    }
}
