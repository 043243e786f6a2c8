package dev.llmops.serving.report;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Draws a line chart of values against concurrency as inline SVG, so a report is one self-contained file. Each point
 * carries its value as data attributes and a tooltip, so the figures can be read exactly and checked by a parser.
 */
final class SvgLineChart {

    static final String[] PALETTE = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf"};
    private static final int WIDTH = 680;
    private static final int HEIGHT = 340;
    private static final int LEFT = 72;
    private static final int RIGHT = 16;
    private static final int TOP = 40;
    private static final int BOTTOM = 84;
    private static final int Y_TICKS = 5;

    private SvgLineChart() {}

    static String render(String title, String yLabel, String unit, List<Series> series) {
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" width=\"%d\" height=\"%d\" "
                        + "viewBox=\"0 0 %d %d\" data-title=\"%s\">",
                WIDTH,
                HEIGHT,
                WIDTH,
                HEIGHT,
                Html.escape(title)));
        svg.append("<title>").append(Html.escape(title)).append("</title>");
        svg.append(text(WIDTH / 2.0, 22, "middle", "chart-title", title));
        TreeSet<Integer> levels = new TreeSet<>();
        double max = 0;
        for (Series s : series) {
            for (Series.Point p : s.points()) {
                levels.add(p.concurrency());
                max = Math.max(max, p.value());
            }
        }
        if (levels.isEmpty()) {
            svg.append(text(WIDTH / 2.0, HEIGHT / 2.0, "middle", "empty", "no measurements"));
            return svg.append("</svg>").toString();
        }
        Scale x = new Scale(
                levels.first(),
                levels.first().equals(levels.last()) ? levels.first() + 1 : levels.last(),
                LEFT,
                WIDTH - RIGHT);
        double step = niceStep(max / Y_TICKS);
        double yMax = step * Y_TICKS;
        Scale y = new Scale(0, yMax, HEIGHT - BOTTOM, TOP);

        for (int i = 0; i <= Y_TICKS; i++) {
            double value = i * step;
            double py = y.map(value);
            svg.append(line(LEFT, py, WIDTH - RIGHT, py, i == 0 ? "axis" : "grid"));
            svg.append(text(LEFT - 6, py + 4, "end", "tick", format(value)));
        }
        for (int level : levels) {
            double px = x.map(level);
            svg.append(line(px, HEIGHT - BOTTOM, px, HEIGHT - BOTTOM + 5, "axis"));
            svg.append(text(px, HEIGHT - BOTTOM + 18, "middle", "tick", Integer.toString(level)));
        }
        svg.append(text((LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - BOTTOM + 36, "middle", "axis-label", "concurrency"));
        svg.append(String.format(
                Locale.ROOT,
                "<text class=\"axis-label\" text-anchor=\"middle\" transform=\"translate(16 %.1f) "
                        + "rotate(-90)\">%s</text>",
                (TOP + HEIGHT - BOTTOM) / 2.0,
                Html.escape(yLabel)));

        for (Series s : series) {
            String colour = PALETTE[s.colour() % PALETTE.length];
            svg.append("<g class=\"series\" data-series=\"")
                    .append(Html.escape(s.name()))
                    .append("\">");
            StringBuilder points = new StringBuilder();
            for (Series.Point p : s.points()) {
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x.map(p.concurrency()), y.map(p.value())));
            }
            svg.append(String.format(
                    Locale.ROOT,
                    "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\" points=\"%s\"/>",
                    colour,
                    s.style().dashArray,
                    points.toString().trim()));
            for (Series.Point p : s.points()) {
                svg.append(String.format(
                        Locale.ROOT,
                        "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\" "
                                + "data-concurrency=\"%d\" data-value=\"%s\">"
                                + "<title>%s at concurrency %d: %s %s</title></circle>",
                        x.map(p.concurrency()),
                        y.map(p.value()),
                        colour,
                        p.concurrency(),
                        exact(p.value()),
                        Html.escape(s.name()),
                        p.concurrency(),
                        format(p.value()),
                        Html.escape(unit)));
            }
            svg.append("</g>");
        }
        appendLegend(svg, series);
        return svg.append("</svg>").toString();
    }

    private static void appendLegend(StringBuilder svg, List<Series> series) {
        double legendTop = HEIGHT - BOTTOM + 52;
        double column = (WIDTH - LEFT - RIGHT) / 3.0;
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            double px = LEFT + (i % 3) * column;
            double py = legendTop + (i / 3) * 16;
            svg.append(String.format(
                    Locale.ROOT,
                    "<line class=\"legend\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                            + "stroke-width=\"2\" stroke-dasharray=\"%s\"/>",
                    px,
                    py - 4,
                    px + 22,
                    py - 4,
                    PALETTE[s.colour() % PALETTE.length],
                    s.style().dashArray));
            svg.append(text(px + 28, py, "start", "legend", s.name()));
        }
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

    /** The value as measured, without a trailing zero, for machine reading. */
    static String exact(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
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
