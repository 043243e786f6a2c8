package dev.llmops.serving.report;

import java.util.Locale;

/** The frame every chart of the report draws in: size, margins, title, axis labels, legend, number formats. */
final class SvgFrame {

    static final String[] PALETTE = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf"};
    static final int WIDTH = 680;
    static final int HEIGHT = 340;
    static final int LEFT = 72;
    static final int RIGHT = 16;
    static final int TOP = 40;
    static final int BOTTOM = 84;

    private SvgFrame() {}

    /** The opening tag, with the title for screen readers and on top of the chart. */
    static StringBuilder open(String title) {
        return open(title, HEIGHT);
    }

    /** The opening tag of a chart taller than the others, for a legend of more than two rows. */
    static StringBuilder open(String title, int height) {
        StringBuilder svg = new StringBuilder(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" width=\"%d\" height=\"%d\" "
                        + "viewBox=\"0 0 %d %d\" data-title=\"%s\">",
                WIDTH,
                height,
                WIDTH,
                height,
                Html.escape(title)));
        svg.append("<title>").append(Html.escape(title)).append("</title>");
        svg.append(text(WIDTH / 2.0, 22, "middle", "chart-title", title));
        return svg;
    }

    /** A chart with nothing to draw. */
    static String empty(StringBuilder svg) {
        svg.append(text(WIDTH / 2.0, HEIGHT / 2.0, "middle", "empty", "no measurements"));
        return svg.append("</svg>").toString();
    }

    static void axisLabels(StringBuilder svg, String xLabel, String yLabel) {
        svg.append(text((LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - BOTTOM + 36, "middle", "axis-label", xLabel));
        svg.append(String.format(
                Locale.ROOT,
                "<text class=\"axis-label\" text-anchor=\"middle\" transform=\"translate(16 %.1f) rotate(-90)\">"
                        + "%s</text>",
                (TOP + HEIGHT - BOTTOM) / 2.0,
                Html.escape(yLabel)));
    }

    /** How many legend entries a row holds. */
    static final int LEGEND_COLUMNS = 3;

    /** Height of a legend row. */
    static final int LEGEND_ROW = 16;

    /** The index-th legend entry, three to a row under the x axis. */
    static void legendEntry(StringBuilder svg, int index, String colour, String dashArray, String name) {
        double px = LEFT + (index % LEGEND_COLUMNS) * (WIDTH - LEFT - RIGHT) / (double) LEGEND_COLUMNS;
        double py = HEIGHT - BOTTOM + 52 + (index / LEGEND_COLUMNS) * LEGEND_ROW;
        svg.append(String.format(
                Locale.ROOT,
                "<line class=\"legend\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                        + "stroke-width=\"2\" stroke-dasharray=\"%s\"/>",
                px,
                py - 4,
                px + 22,
                py - 4,
                colour,
                dashArray));
        svg.append(text(px + 28, py, "start", "legend", name));
    }

    /** The smallest of 1, 2, 2.5 and 5 times a power of ten that is at least the raw step. */
    static double niceStep(double raw) {
        if (raw <= 0) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double factor : new double[] {1, 2, 2.5, 5, 10}) {
            if (factor * magnitude >= raw) {
                return factor * magnitude;
            }
        }
        return 10 * magnitude;
    }

    /** Values as people read them: whole numbers from 100 up, one decimal from 10, two below. */
    static String format(double value) {
        double magnitude = Math.abs(value);
        if (magnitude >= 100 || value == Math.rint(value)) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        return String.format(Locale.ROOT, magnitude >= 10 ? "%.1f" : "%.2f", value);
    }

    static String line(double x1, double y1, double x2, double y2, String cssClass) {
        return String.format(
                Locale.ROOT,
                "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
                cssClass,
                x1,
                y1,
                x2,
                y2);
    }

    static String text(double x, double y, String anchor, String cssClass, String content) {
        return String.format(
                Locale.ROOT,
                "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>",
                cssClass,
                x,
                y,
                anchor,
                Html.escape(content));
    }

    /** Linear map from a data range onto a pixel range. */
    record Scale(double from, double to, double pixelFrom, double pixelTo) {
        double map(double value) {
            return pixelFrom + (value - from) / (to - from) * (pixelTo - pixelFrom);
        }
    }
}
