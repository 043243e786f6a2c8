package dev.llmops.serving.report;

import static dev.llmops.serving.report.SvgFrame.BOTTOM;
import static dev.llmops.serving.report.SvgFrame.HEIGHT;
import static dev.llmops.serving.report.SvgFrame.LEFT;
import static dev.llmops.serving.report.SvgFrame.LEGEND_COLUMNS;
import static dev.llmops.serving.report.SvgFrame.LEGEND_ROW;
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

/**
 * Draws the latency–throughput curve as inline SVG: what one user gets (output tokens/s per request) against what the
 * server delivers (total tokens/s), one point per stage, one line per run. Unlike {@link SvgLineChart}, both axes are
 * continuous; each point names its stage and carries its figures as data attributes.
 */
final class SvgCurveChart {

    private static final int TICKS = 5;

    /** Legend rows the frame has room for; each further row (an experiment of many variants) makes it taller. */
    private static final int ROOMY_LEGEND_ROWS = 2;

    /** One run's curve. */
    record Curve(String name, int colour, List<Point> points) {}

    /** One stage: x and y in the axes' units. */
    record Point(String stage, double x, double y) {}

    private SvgCurveChart() {}

    static String render(String title, String xLabel, String yLabel, List<Curve> curves) {
        int legendRows = (curves.size() + LEGEND_COLUMNS - 1) / LEGEND_COLUMNS;
        StringBuilder svg = open(title, HEIGHT + Math.max(0, legendRows - ROOMY_LEGEND_ROWS) * LEGEND_ROW);
        double maxX = 0;
        double maxY = 0;
        for (Curve curve : curves) {
            for (Point p : curve.points()) {
                maxX = Math.max(maxX, p.x());
                maxY = Math.max(maxY, p.y());
            }
        }
        if (maxX == 0 || maxY == 0) {
            return empty(svg);
        }
        double xStep = niceStep(maxX / TICKS);
        double yStep = niceStep(maxY / TICKS);
        var x = new Scale(0, xStep * TICKS, LEFT, WIDTH - RIGHT);
        var y = new Scale(0, yStep * TICKS, HEIGHT - BOTTOM, TOP);
        for (int i = 0; i <= TICKS; i++) {
            double py = y.map(i * yStep);
            svg.append(line(LEFT, py, WIDTH - RIGHT, py, i == 0 ? "axis" : "grid"));
            svg.append(text(LEFT - 6, py + 4, "end", "tick", format(i * yStep)));
            double px = x.map(i * xStep);
            svg.append(line(px, HEIGHT - BOTTOM, px, HEIGHT - BOTTOM + 5, "axis"));
            svg.append(text(px, HEIGHT - BOTTOM + 18, "middle", "tick", format(i * xStep)));
        }
        axisLabels(svg, xLabel, yLabel);
        for (int i = 0; i < curves.size(); i++) {
            appendCurve(svg, curves.get(i), x, y, i);
        }
        return svg.append("</svg>").toString();
    }

    private static void appendCurve(StringBuilder svg, Curve curve, Scale x, Scale y, int index) {
        String colour = PALETTE[curve.colour() % PALETTE.length];
        svg.append("<g class=\"series\" data-series=\"")
                .append(Html.escape(curve.name()))
                .append("\">");
        StringBuilder points = new StringBuilder();
        for (Point p : curve.points()) {
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x.map(p.x()), y.map(p.y())));
        }
        svg.append(String.format(
                Locale.ROOT,
                "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>",
                colour,
                points.toString().trim()));
        for (Point p : curve.points()) {
            svg.append(String.format(
                    Locale.ROOT,
                    "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\" data-stage=\"%s\" "
                            + "data-x=\"%s\" data-y=\"%s\"><title>%s %s: %s total tok/s, %s tok/s per user</title>"
                            + "</circle>",
                    x.map(p.x()),
                    y.map(p.y()),
                    colour,
                    Html.escape(p.stage()),
                    PlainNumber.text(p.x()),
                    PlainNumber.text(p.y()),
                    Html.escape(curve.name()),
                    Html.escape(p.stage()),
                    format(p.x()),
                    format(p.y())));
        }
        svg.append("</g>");
        legendEntry(svg, index, colour, "none", curve.name());
    }
}
