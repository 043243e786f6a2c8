package dev.llmops.serving.demo.apiserver;

import java.time.Duration;

/** Ages the way kubectl prints them (2m5s, 3h, 4d2h, 2y31d), which date printer columns are converted to. */
final class HumanAge {

    private static final long HOURS_PER_YEAR = 24 * 365;

    private HumanAge() {}

    static String of(Duration age) {
        long seconds = age.getSeconds();
        if (seconds < -1) {
            return "<invalid>";
        }
        if (seconds < 0) {
            return "0s";
        }
        if (seconds < 120) {
            return seconds + "s";
        }
        long minutes = age.toMinutes();
        if (minutes < 10) {
            return withRemainder(minutes, "m", seconds % 60, "s");
        }
        if (minutes < 180) {
            return minutes + "m";
        }
        long hours = age.toHours();
        if (hours < 8) {
            return withRemainder(hours, "h", minutes % 60, "m");
        }
        if (hours < 48) {
            return hours + "h";
        }
        if (hours < 24 * 8) {
            return withRemainder(hours / 24, "d", hours % 24, "h");
        }
        if (hours < HOURS_PER_YEAR * 2) {
            return hours / 24 + "d";
        }
        if (hours < HOURS_PER_YEAR * 8) {
            return withRemainder(hours / HOURS_PER_YEAR, "y", hours / 24 % 365, "d");
        }
        return hours / HOURS_PER_YEAR + "y";
    }

    private static String withRemainder(long whole, String unit, long remainder, String remainderUnit) {
        return remainder == 0 ? whole + unit : whole + unit + remainder + remainderUnit;
    }
}
