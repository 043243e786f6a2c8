package dev.llmops.serving.helm;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The metric names PromQL expressions select, read by Prometheus' own parser (hack/promql-metrics, run with Go).
 * Without Go the tests that need it are skipped, except in CI, where Go is required.
 */
final class PromQlSelectors {

    private static final Path TOOL = Path.of("hack/promql-metrics");
    /** The first run compiles the parser and its dependencies; later runs reuse Go's build cache. */
    private static final long TIMEOUT_MINUTES = 15;

    private static final int MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One expression as parsed: the metric names it selects, or the parser's error. */
    record Parsed(String expr, List<String> metrics, String error) {}

    private PromQlSelectors() {}

    /** Parses each expression; the result keeps their order. */
    static Map<String, Parsed> parse(List<String> expressions) throws IOException, InterruptedException {
        assumeTrue(goAvailable() || System.getenv("CI") != null, "Go is not installed: PromQL checks skipped");
        Process go = new ProcessBuilder("go", "run", ".")
                .directory(TOOL.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        CompletableFuture<byte[]> output = CompletableFuture.supplyAsync(() -> readBounded(go.getInputStream()));
        try (OutputStream in = go.getOutputStream()) {
            for (String expression : expressions) {
                in.write(JSON.writeValueAsBytes(expression));
                in.write('\n');
            }
        }
        if (!go.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            go.destroyForcibly();
            throw new IOException("hack/promql-metrics did not finish within " + TIMEOUT_MINUTES + " minutes");
        }
        if (go.exitValue() != 0) {
            throw new IOException("hack/promql-metrics exited with " + go.exitValue() + " (its error is above)");
        }
        Map<String, Parsed> parsed = new LinkedHashMap<>();
        for (String line :
                new String(output.join(), StandardCharsets.UTF_8).lines().toList()) {
            JsonNode node = JSON.readTree(line);
            List<String> metrics = new ArrayList<>();
            node.path("metrics").forEach(m -> metrics.add(m.asText()));
            String expr = node.get("expr").asText();
            parsed.put(
                    expr,
                    new Parsed(
                            expr,
                            metrics,
                            node.hasNonNull("error") ? node.get("error").asText() : null));
        }
        if (parsed.size() != expressions.stream().distinct().count()) {
            throw new IOException("hack/promql-metrics answered " + parsed.size() + " of " + expressions.size());
        }
        return parsed;
    }

    private static byte[] readBounded(InputStream in) {
        try (in) {
            byte[] bytes = in.readNBytes(MAX_OUTPUT_BYTES + 1);
            if (bytes.length > MAX_OUTPUT_BYTES) {
                throw new IllegalStateException("hack/promql-metrics wrote more than " + MAX_OUTPUT_BYTES + " bytes");
            }
            return bytes;
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read hack/promql-metrics' output", e);
        }
    }

    private static boolean goAvailable() {
        String path = System.getenv("PATH");
        return path != null
                && List.of(path.split(File.pathSeparator)).stream()
                        .anyMatch(dir -> Files.isExecutable(Path.of(dir, "go")));
    }
}
