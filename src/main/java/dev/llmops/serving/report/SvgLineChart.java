package dev.llmops.serving.report;

import static dev.llmops.serving.report.SvgFrame.BOTTOM;
import static dev.llmops.serving.report.SvgFrame.HEIGHT;
import static dev.llmops.serving.report.SvgFrame.LEFT;
import static dev.llmops.serving.report.SvgFrame.PALETTE;
import static dev.llmops.serving.report.SvgFrame.RIGHT;
import static dev.llmops.serving.report.SvgFrame.Scale;
import static dev.llmops.serving.report.SvgFrame.TOP;
import static dev.llmops.serving.report.SvgFrame.WIDTH;
import static dev.llmops.serving.report.SvgFrame.axisLabels;
import static dev.llmops.serving.report.SvgFrame.empty;
import static dev.llmops.serving.report.SvgFrame.format;
import static dev.llmops.serving.report.SvgFrame.legendEntry;
import static dev.llmops.serving.report.SvgFrame.line;
import static dev.llmops.serving.report.SvgFrame.niceStep;
import static dev.llmops.serving.report.SvgFrame.open;
import static dev.llmops.serving.report.SvgFrame.text;

import dev.llmops.serving.api.contract.PlainNumber;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Draws a line chart of values against concurrency as inline SVG, so a report is one self-contained file. Each point
 * carries its value as data attributes and a tooltip, so the figures can be read exactly and checked by a parser.
 */
final class SvgLineChart {

    private static final int Y_TICKS = 5;

    private SvgLineChart() {}

    static String render(String title, String yLabel, String unit, List<Series> series) {
        StringBuilder svg = open(title);
        TreeSet<Integer> levels = new TreeSet<>();
        double max = 0;
        for (Series s : series) {
            for (Series.Point p : s.points()) {
                levels.add(p.concurrency());
                max = Math.max(max, p.value());
            }
        }
        if (levels.isEmpty()) {
            return empty(svg);
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
        axisLabels(svg, "concurrency", yLabel);

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
                        PlainNumber.text(p.value()),
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
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            legendEntry(svg, i, PALETTE[s.colour() % PALETTE.length], s.style().dashArray, s.name());
        }
    }
}
