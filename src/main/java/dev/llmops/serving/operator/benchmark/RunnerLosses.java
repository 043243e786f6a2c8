package dev.llmops.serving.operator.benchmark;

import java.util.ArrayList;
import java.util.List;

/**
 * The run's record of runner pods lost mid-benchmark (deleted, evicted, failed), kept in its warnings from the moment
 * each loss is seen until the run ends: the lost pod itself is soon gone, and the figures of a run whose runner was
 * replaced are those of the last pod, which ran the whole benchmark again.
 */
final class RunnerLosses {

    static final String PREFIX = "Runner pod ";
    /** Evictions do not count against the Job's backoffLimit, so nothing else bounds how many a run sees. */
    static final int MAX_NAMED = 5;

    private RunnerLosses() {}

    /** The losses already recorded in {@code warnings}, then the newly seen ones, at most {@link #MAX_NAMED}. */
    static List<String> merge(List<String> warnings, List<String> seen) {
        List<String> losses = new ArrayList<>(recorded(warnings));
        for (String loss : seen) {
            if (losses.size() < MAX_NAMED && losses.stream().noneMatch(known -> samePod(known, loss))) {
                losses.add(loss);
            }
        }
        return losses;
    }

    /** The losses among a status's warnings. */
    static List<String> recorded(List<String> warnings) {
        return warnings.stream().filter(w -> w.startsWith(PREFIX)).toList();
    }

    /** {@code warnings} with its losses replaced by {@code losses}, which come first. */
    static List<String> withLosses(List<String> warnings, List<String> losses) {
        List<String> all = new ArrayList<>(losses);
        warnings.stream().filter(w -> !w.startsWith(PREFIX)).forEach(all::add);
        return all;
    }

    private static boolean samePod(String a, String b) {
        return podName(a).equals(podName(b));
    }

    private static String podName(String loss) {
        int end = loss.indexOf(' ', PREFIX.length());
        return end < 0 ? loss : loss.substring(PREFIX.length(), end);
    }
}
