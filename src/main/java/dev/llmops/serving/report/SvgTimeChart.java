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

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * A figure over time, one line per stage of a target's runs: a regressed run is marked with a red triangle pointing
 * down, an improved one with a green triangle pointing up, and a dashed vertical line stands where the server changed
 * (image or arguments), so a step in a line can be read against what caused it.
 */
final class SvgTimeChart {

    private static final int Y_TICKS = 5;
    private static final DateTimeFormatter TICK =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT).withZone(ZoneOffset.UTC);

    /** A stage's value in each run that has it. */
    record Line(String name, List<Point> points) {}

    /** One run's value, and whether that run regressed or improved against its reference. */
    record Point(Instant time, double value, String run, String verdict) {}

    /** A change of the server before the run that finished at {@code time}. */
    record Change(Instant time, String description) {}

    private SvgTimeChart() {}

    static String render(String title, String yLabel, String unit, List<Line> lines, List<Change> changes) {
        StringBuilder svg = open(title);
        double max = lines.stream()
                .flatMap(l -> l.points().stream())
                .mapToDouble(Point::value)
                .max()
                .orElse(Double.NaN);
        if (Double.isNaN(max)) {
            return empty(svg);
        }
        long first = lines.stream()
                .flatMap(l -> l.points().stream())
                .mapToLong(p -> p.time().getEpochSecond())
                .min()
                .orElseThrow();
        long last = lines.stream()
                .flatMap(l -> l.points().stream())
                .mapToLong(p -> p.time().getEpochSecond())
                .max()
                .orElseThrow();
        Scale x = new Scale(first, last == first ? first + 3600 : last, LEFT + 12, WIDTH - RIGHT - 12);
        double step = niceStep(max / Y_TICKS);
        Scale y = new Scale(0, step * Y_TICKS, HEIGHT - BOTTOM, TOP);
        for (int i = 0; i <= Y_TICKS; i++) {
            double py = y.map(i * step);
            svg.append(line(LEFT, py, WIDTH - RIGHT, py, i == 0 ? "axis" : "grid"));
            svg.append(text(LEFT - 6, py + 4, "end", "tick", format(i * step)));
        }
        for (long tick : last == first ? new long[] {first} : new long[] {first, last}) {
            double px = x.map(tick);
            svg.append(line(px, HEIGHT - BOTTOM, px, HEIGHT - BOTTOM + 5, "axis"));
            svg.append(text(px, HEIGHT - BOTTOM + 18, "middle", "tick", TICK.format(Instant.ofEpochSecond(tick))));
        }
        axisLabels(svg, "finished (UTC)", yLabel);
        for (Change change : changes) {
            double px = x.map(change.time().getEpochSecond());
            svg.append(String.format(
                    Locale.ROOT,
                    "<line class=\"change\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\" "
                            + "stroke-dasharray=\"4 3\"><title>%s</title></line>",
                    px,
                    TOP,
                    px,
                    HEIGHT - BOTTOM,
                    Html.text(change.description())));
        }
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            String colour = PALETTE[i % PALETTE.length];
            StringBuilder points = new StringBuilder();
            for (Point p : l.points()) {
                points.append(
                        String.format(Locale.ROOT, "%.1f,%.1f ", x.map(p.time().getEpochSecond()), y.map(p.value())));
            }
            svg.append("<g class=\"series\" data-series=\"")
                    .append(Html.escape(l.name()))
                    .append("\">")
                    .append(String.format(
                            Locale.ROOT,
                            "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>",
                            colour,
                            points.toString().trim()));
            for (Point p : l.points()) {
                svg.append(marker(x.map(p.time().getEpochSecond()), y.map(p.value()), colour, p, l.name(), unit));
            }
            svg.append("</g>");
            legendEntry(svg, i, colour, "", l.name());
        }
        return svg.append("</svg>").toString();
    }

    /** A circle, or a triangle for a run with a verdict, with the run, the stage and the value as its tooltip. */
    private static String marker(double px, double py, String colour, Point p, String stage, String unit) {
        String tooltip = "<title>" + Html.text(p.run()) + " (" + TICK.format(p.time()) + "), " + Html.escape(stage)
                + ": " + format(p.value()) + " " + Html.escape(unit)
                + (p.verdict() == null ? "" : ", " + p.verdict()) + "</title>";
        if (p.verdict() == null) {
            return String.format(
                    Locale.ROOT,
                    "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\">%s</circle>",
                    px,
                    py,
                    colour,
                    tooltip);
        }
        boolean regressed = p.verdict().equals("Regressed");
        double tip = regressed ? 6 : -6;
        return String.format(
                Locale.ROOT,
                "<polygon class=\"%s\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\">%s</polygon>",
                regressed ? "regressed" : "improved",
                px - 6,
                py - tip,
                px + 6,
                py - tip,
                px,
                py + tip,
                regressed ? "#d62728" : "#2ca02c",
                tooltip);
    }
}
