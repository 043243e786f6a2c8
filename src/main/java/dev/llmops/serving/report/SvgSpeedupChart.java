package dev.llmops.serving.report;

import static dev.llmops.serving.report.SvgFrame.BOTTOM;
import static dev.llmops.serving.report.SvgFrame.HEIGHT;
import static dev.llmops.serving.report.SvgFrame.LEFT;
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
import dev.llmops.serving.api.v1alpha1.benchmarkrun.SpeedVerdict;
import java.util.List;
import java.util.Locale;

/**
 * Draws each stage's speedup with its 95 % interval as an error bar against a line at 1, so a reader sees at a glance
 * which stages got faster, which slower, and which moved within the noise.
 */
final class SvgSpeedupChart {

    private static final int Y_TICKS = 5;
    private static final double CAP = 6;
    private static final String FASTER = "#2ca02c";
    private static final String SLOWER = "#d62728";
    private static final String WITHIN_NOISE = "#7f7f7f";

    /** One stage's speedup and interval; the verdict colours it. */
    record Bar(String stage, double estimate, double low, double high, SpeedVerdict verdict) {}

    private SvgSpeedupChart() {}

    static String render(String title, String yLabel, List<Bar> bars) {
        StringBuilder svg = open(title);
        if (bars.isEmpty()) {
            return empty(svg);
        }
        double min = 1;
        double max = 1;
        for (Bar bar : bars) {
            min = Math.min(min, Math.min(bar.low(), bar.estimate()));
            max = Math.max(max, Math.max(bar.high(), bar.estimate()));
        }
        double step = niceStep((max - min) / Y_TICKS);
        double from = Math.floor(min / step) * step;
        double to = Math.max(from + step, Math.ceil(max / step) * step);
        Scale y = new Scale(from, to, HEIGHT - BOTTOM, TOP);
        for (double value = from; value <= to + step / 2; value += step) {
            double py = y.map(value);
            svg.append(line(LEFT, py, WIDTH - RIGHT, py, value == from ? "axis" : "grid"));
            svg.append(text(LEFT - 6, py + 4, "end", "tick", format(value)));
        }
        double parity = y.map(1);
        svg.append(String.format(
                Locale.ROOT,
                "<line class=\"parity\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
                        + "stroke-dasharray=\"6 4\"/>",
                (double) LEFT,
                parity,
                (double) WIDTH - RIGHT,
                parity));
        double slot = (WIDTH - LEFT - RIGHT) / (double) bars.size();
        for (int i = 0; i < bars.size(); i++) {
            Bar bar = bars.get(i);
            double px = LEFT + slot * (i + 0.5);
            svg.append(text(px, HEIGHT - BOTTOM + 18, "middle", "tick", bar.stage()));
            appendBar(svg, bar, px, y);
        }
        axisLabels(svg, "stage", yLabel);
        legendEntry(svg, 0, FASTER, "none", "faster");
        legendEntry(svg, 1, SLOWER, "none", "slower");
        legendEntry(svg, 2, WITHIN_NOISE, "none", "no significant difference");
        return svg.append("</svg>").toString();
    }

    private static void appendBar(StringBuilder svg, Bar bar, double px, Scale y) {
        String colour = colour(bar.verdict());
        String verdict = bar.verdict() == null ? "" : bar.verdict().name();
        svg.append(String.format(
                Locale.ROOT,
                "<g class=\"interval\" data-stage=\"%s\" data-estimate=\"%s\" data-low=\"%s\" data-high=\"%s\" "
                        + "data-verdict=\"%s\" stroke=\"%s\" stroke-width=\"2\">",
                Html.escape(bar.stage()),
                PlainNumber.text(bar.estimate()),
                PlainNumber.text(bar.low()),
                PlainNumber.text(bar.high()),
                verdict,
                colour));
        double low = y.map(bar.low());
        double high = y.map(bar.high());
        svg.append(String.format(
                Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                        + "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                        + "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
                px,
                low,
                px,
                high,
                px - CAP,
                low,
                px + CAP,
                low,
                px - CAP,
                high,
                px + CAP,
                high));
        svg.append(String.format(
                Locale.ROOT,
                "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">"
                        + "<title>%s: %s× (95 %% interval %s–%s)%s</title></circle></g>",
                px,
                y.map(bar.estimate()),
                colour,
                Html.escape(bar.stage()),
                format(bar.estimate()),
                format(bar.low()),
                format(bar.high()),
                verdict.isEmpty() ? "" : ", " + Verdicts.label(bar.verdict())));
    }

    private static String colour(SpeedVerdict verdict) {
        if (verdict == SpeedVerdict.Faster) {
            return FASTER;
        }
        return verdict == SpeedVerdict.Slower ? SLOWER : WITHIN_NOISE;
    }
}
