package dev.llmops.serving.report;

import java.util.List;
import java.util.Locale;

/**
 * Draws the latency–throughput curve as inline SVG: what one user gets (output tokens/s per request) against what the
 * server delivers (total tokens/s), one point per stage, one line per run. Unlike {@link SvgLineChart}, both axes are
 * continuous; each point names its stage and carries its figures as data attributes.
 */
final class SvgCurveChart {

    private static final int WIDTH = 680;
    private static final int HEIGHT = 340;
    private static final int LEFT = 72;
    private static final int RIGHT = 16;
    private static final int TOP = 40;
    private static final int BOTTOM = 84;
    private static final int TICKS = 5;

    /** One run's curve. */
    record Curve(String name, int colour, List<Point> points) {}

    /** One stage: x and y in the axes' units. */
    record Point(String stage, double x, double y) {}

    private SvgCurveChart() {}

    static String render(String title, String xLabel, String yLabel, List<Curve> curves) {
        StringBuilder svg = new StringBuilder(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" width=\"%d\" height=\"%d\" "
                        + "viewBox=\"0 0 %d %d\" data-title=\"%s\">",
                WIDTH,
                HEIGHT,
                WIDTH,
                HEIGHT,
                Html.escape(title)));
        svg.append("<title>").append(Html.escape(title)).append("</title>");
        svg.append(SvgLineChart.text(WIDTH / 2.0, 22, "middle", "chart-title", title));
        double maxX = 0;
        double maxY = 0;
        for (Curve curve : curves) {
            for (Point p : curve.points()) {
                maxX = Math.max(maxX, p.x());
                maxY = Math.max(maxY, p.y());
            }
        }
        if (maxX == 0 || maxY == 0) {
            svg.append(SvgLineChart.text(WIDTH / 2.0, HEIGHT / 2.0, "middle", "empty", "no measurements"));
            return svg.append("</svg>").toString();
        }
        double xStep = SvgLineChart.niceStep(maxX / TICKS);
        double yStep = SvgLineChart.niceStep(maxY / TICKS);
        var x = new SvgLineChart.Scale(0, xStep * TICKS, LEFT, WIDTH - RIGHT);
        var y = new SvgLineChart.Scale(0, yStep * TICKS, HEIGHT - BOTTOM, TOP);
        for (int i = 0; i <= TICKS; i++) {
            double py = y.map(i * yStep);
            svg.append(SvgLineChart.line(LEFT, py, WIDTH - RIGHT, py, i == 0 ? "axis" : "grid"));
            svg.append(SvgLineChart.text(LEFT - 6, py + 4, "end", "tick", SvgLineChart.format(i * yStep)));
            double px = x.map(i * xStep);
            svg.append(SvgLineChart.line(px, HEIGHT - BOTTOM, px, HEIGHT - BOTTOM + 5, "axis"));
            svg.append(SvgLineChart.text(px, HEIGHT - BOTTOM + 18, "middle", "tick", SvgLineChart.format(i * xStep)));
        }
        svg.append(
                SvgLineChart.text((LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - BOTTOM + 36, "middle", "axis-label", xLabel));
        svg.append(String.format(
                Locale.ROOT,
                "<text class=\"axis-label\" text-anchor=\"middle\" transform=\"translate(16 %.1f) rotate(-90)\">"
                        + "%s</text>",
                (TOP + HEIGHT - BOTTOM) / 2.0,
                Html.escape(yLabel)));
        for (int i = 0; i < curves.size(); i++) {
            appendCurve(svg, curves.get(i), x, y, i);
        }
        return svg.append("</svg>").toString();
    }

    private static void appendCurve(
            StringBuilder svg, Curve curve, SvgLineChart.Scale x, SvgLineChart.Scale y, int index) {
        String colour = SvgLineChart.PALETTE[curve.colour() % SvgLineChart.PALETTE.length];
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
                    SvgLineChart.exact(p.x()),
                    SvgLineChart.exact(p.y()),
                    Html.escape(curve.name()),
                    Html.escape(p.stage()),
                    SvgLineChart.format(p.x()),
                    SvgLineChart.format(p.y())));
        }
        svg.append("</g>");
        double legendX = LEFT + (index % 3) * (WIDTH - LEFT - RIGHT) / 3.0;
        double legendY = HEIGHT - BOTTOM + 52 + (index / 3) * 16;
        svg.append(String.format(
                Locale.ROOT,
                "<line class=\"legend\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                        + "stroke-width=\"2\"/>",
                legendX,
                legendY - 4,
                legendX + 22,
                legendY - 4,
                colour));
        svg.append(SvgLineChart.text(legendX + 28, legendY, "start", "legend", curve.name()));
    }
}
