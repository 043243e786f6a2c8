package dev.llmops.serving.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.e2e.support.Processes;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lays reports out in headless Chromium at 1280 px and checks what a reader sees: nothing wider than the window and no
 * text pushed to the right. Skips without Chromium, except on CI, where a skip would hide a broken layout.
 */
class BrowserLayoutTest {

    private static final int WIDTH = 1280;
    private static final Duration CHROMIUM_TIMEOUT = Duration.ofSeconds(60);
    private static final List<String> BINARIES = List.of("chromium", "chromium-browser");

    /**
     * Runs once the page is laid out and writes what overflows into the DOM that Chromium dumps: the window's width,
     * the page's, each element reaching past the window's right edge, and each right-aligned cell holding text, not a
     * figure.
     */
    private static final String PROBE = """
            <pre id="probe"></pre><script>
            (function () {
              var width = document.documentElement.clientWidth, lines = [];
              lines.push('innerWidth ' + window.innerWidth, 'clientWidth ' + width,
                  'scrollWidth ' + document.documentElement.scrollWidth);
              document.querySelectorAll('body *').forEach(function (e) {
                var text = (e.textContent || '').trim().slice(0, 60);
                var right = e.getBoundingClientRect().right;
                if (right > width + 0.5) {
                  lines.push('wide ' + e.tagName + ' ' + Math.round(right) + ' ' + text);
                }
                if (e.tagName === 'TD' && getComputedStyle(e).textAlign === 'right'
                    && !/^[-\\d.,×—–%\\s]*$/.test(text)) {
                  lines.push('right-aligned ' + text);
                }
              });
              document.getElementById('probe').textContent = lines.join('\\n');
            })();
            </script>""";

    private static final Optional<Path> CHROMIUM = Stream.of(
                    System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
            .flatMap(d -> BINARIES.stream().map(b -> Path.of(d, b)))
            .filter(Files::isExecutable)
            .findFirst();

    @TempDir
    Path dir;

    private final RunLoader loader = new RunLoader();

    @BeforeEach
    void requireChromium() {
        String missing =
                "no chromium on PATH (Debian package chromium): the report's layout in a browser is not checked";
        if (CHROMIUM.isEmpty() && "true".equals(System.getenv("CI"))) {
            fail(missing + ", and CI=true forbids skipping it");
        }
        Assumptions.assumeTrue(CHROMIUM.isPresent(), missing);
    }

    @Test
    void demoComparisonFitsTheWindow() throws Exception {
        assertFits(HtmlReport.render(
                load(UnfinishedRunReportTest.DEMO_CANDIDATE),
                Optional.of(load(UnfinishedRunReportTest.DEMO_BASELINE))));
    }

    @Test
    void comparisonWithLargeFiguresFitsTheWindow() throws Exception {
        assertFits(HtmlReport.render(load(ReportTest.CANDIDATE), Optional.of(load(ReportTest.BASELINE))));
    }

    @Test
    void pairedComparisonWithVerdictsFitsTheWindow() throws Exception {
        assertFits(HtmlReport.render(load(PairedReportTest.PAIRED), Optional.of(load(ReportTest.BASELINE))));
    }

    @Test
    void failedRunWithUnbrokenTextFitsTheWindow() throws Exception {
        BenchmarkRun run = load(UnfinishedRunReportTest.FAILED);
        String unbroken = "CUDA_ERROR_NO_BINARY_FOR_GPU/" + "x".repeat(3_000);
        run.getStatus()
                .conditions
                .add(new ConditionBuilder()
                        .withType("Stalled")
                        .withStatus("True")
                        .withReason("ServerNotReady".repeat(10))
                        .withMessage(unbroken)
                        .build());
        run.getStatus().warnings = List.of(unbroken);
        run.getStatus().target = unbroken;
        assertFits(HtmlReport.render(run, Optional.of(load(ReportTest.BASELINE))));
    }

    @Test
    void experimentWithAFailedVariantFitsTheWindow() throws Exception {
        assertFits(ExperimentHtmlReport.render(ExperimentReportTest.withRuns()));
    }

    private void assertFits(String html) throws Exception {
        Path page = dir.resolve("report.html");
        Files.writeString(page, html.replace("</body>", PROBE + "</body>"));
        List<String> probe = List.of(layout(page).split("\n"));

        assertThat(probe).as("Chromium's window is the width asked for").contains("innerWidth " + WIDTH);
        String clientWidth = probe.stream()
                .filter(l -> l.startsWith("clientWidth "))
                .findFirst()
                .orElseThrow()
                .substring(12);
        assertThat(probe).as("the page is no wider than the window").contains("scrollWidth " + clientWidth);
        assertThat(probe)
                .as("elements past the window's right edge, and text cells aligned right")
                .noneMatch(l -> l.startsWith("wide ") || l.startsWith("right-aligned "));
    }

    /** The probe's report after Chromium laid the page out, read from the DOM it dumps. */
    private String layout(Path page) throws IOException, InterruptedException {
        Path profile = Files.createDirectories(dir.resolve("profile"));
        Path dom = dir.resolve("dom.html");
        Path log = dir.resolve("chromium.log");
        Process process = new ProcessBuilder(
                        CHROMIUM.get().toString(),
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-quic",
                        "--no-first-run",
                        "--disable-background-networking",
                        "--disable-component-update",
                        "--disable-sync",
                        "--user-data-dir=" + profile,
                        "--window-size=" + WIDTH + ",900",
                        "--dump-dom",
                        page.toUri().toString())
                .redirectOutput(dom.toFile())
                .redirectError(log.toFile())
                .start();
        try {
            if (!process.waitFor(CHROMIUM_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                fail("chromium did not finish within " + CHROMIUM_TIMEOUT + ": " + Files.readString(log));
            }
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            Processes.stop(process, Duration.ofSeconds(5));
        }
        assertThat(process.exitValue()).as(Files.readString(log)).isZero();
        Element probe = Jsoup.parse(dom.toFile()).getElementById("probe");
        assertThat(probe)
                .as("probe in the DOM chromium dumped; its log: " + Files.readString(log))
                .isNotNull();
        return probe.wholeText();
    }

    private BenchmarkRun load(Path file) throws IOException {
        return loader.load(Files.readString(file), file.toString());
    }
}
