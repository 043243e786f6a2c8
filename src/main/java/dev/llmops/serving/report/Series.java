package dev.llmops.serving.report;

import java.util.List;

/**
 * One line of a chart: a value per concurrency level.
 *
 * @param style how the line is drawn, so percentiles of one run share a colour and differ in dash
 */
record Series(String name, int colour, LineStyle style, List<Point> points) {

    /** A measured value at a requested concurrency. */
    public record Point(int concurrency, double value) {}

    /** Dash pattern of a line. */
    public enum LineStyle {
        SOLID(""),
        DASHED("6 4"),
        DOTTED("2 3");

        final String dashArray;

        LineStyle(String dashArray) {
            this.dashArray = dashArray;
        }
    }
}
