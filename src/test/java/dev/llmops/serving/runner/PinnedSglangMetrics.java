package dev.llmops.serving.runner;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;

/**
 * The metric names the pinned SGLang release declares: from the release's wheel when {@code -Dsglang.wheel=FILE} (or
 * {@code SGLANG_WHEEL}) points at one, else from the extract {@code hack/sglang-metric-names.sh} made of it. Counters
 * are listed by their {@code _total} sample name, histograms by their base name.
 */
public final class PinnedSglangMetrics {

    public static final String VERSION = "0.5.18";
    private static final String COLLECTOR = "sglang/srt/observability/metrics_collector.py";
    private static final Pattern DECLARED = Pattern.compile("name=\"(sglang:[A-Za-z0-9_:]+)\"");
    private static final int MAX_COLLECTOR_BYTES = 4 * 1024 * 1024;

    private PinnedSglangMetrics() {}

    public static Set<String> declaredNames() throws IOException {
        String wheel = System.getProperty("sglang.wheel", System.getenv("SGLANG_WHEEL"));
        if (wheel != null && Files.isRegularFile(Path.of(wheel))) {
            try (ZipFile zip = new ZipFile(wheel);
                    InputStream in = zip.getInputStream(zip.getEntry(COLLECTOR))) {
                Matcher matcher =
                        DECLARED.matcher(new String(in.readNBytes(MAX_COLLECTOR_BYTES), StandardCharsets.UTF_8));
                Set<String> names = new TreeSet<>();
                while (matcher.find()) {
                    names.add(matcher.group(1));
                }
                return names;
            }
        }
        try (InputStream in =
                PinnedSglangMetrics.class.getResourceAsStream("/sglang-" + VERSION + "-metric-names.txt")) {
            return new TreeSet<>(new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .toList());
        }
    }
}
