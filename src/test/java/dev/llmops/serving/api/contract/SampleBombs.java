package dev.llmops.serving.api.contract;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.GZIPOutputStream;

/**
 * Samples documents a hostile runner image (or a tenant writing a ConfigMap) could hand the operator: small once
 * gzipped, huge or numerous once decoded. Each is valid JSON of the samples format's shape.
 */
public final class SampleBombs {

    /** Just under the decoded bound, so only the bounds on what the document holds can stop it. */
    static final int JSON_BYTES = SampleSet.MAX_JSON_BYTES - 64;

    private SampleBombs() {}

    /** One quality output whose tokens are millions of zeros, numbers where text belongs. */
    public static byte[] numbersAsTokens() {
        return gzip("{\"v\":1,\"quality\":[{\"p\":0,\"tokens\":[", "0,", "0]}]}");
    }

    /** One quality output with millions of one-character tokens, text of the right type. */
    public static byte[] tokens() {
        return gzip("{\"v\":1,\"quality\":[{\"p\":0,\"tokens\":[", "\"a\",", "\"a\"]}]}");
    }

    /** Hundreds of thousands of empty stages, each a bootstrap when two runs are compared. */
    public static byte[] stages() {
        return gzip(
                "{\"v\":1,\"stages\":[",
                "{\"n\":\"s\",\"i\":[],\"tok\":[],\"ttft\":[],\"tpot\":[],\"e2e\":[]},",
                "{\"n\":\"s\",\"i\":[],\"tok\":[],\"ttft\":[],\"tpot\":[],\"e2e\":[]}]}");
    }

    /** Hundreds of thousands of empty quality outputs. */
    public static byte[] qualityOutputs() {
        return gzip("{\"v\":1,\"quality\":[", "{\"p\":0},", "{\"p\":0}]}");
    }

    /** One stage whose index column holds millions of numbers. */
    public static byte[] longColumn() {
        return gzip("{\"v\":1,\"stages\":[{\"n\":\"c8\",\"i\":[", "0,", "0]}]}");
    }

    /** The runner's log line carrying {@code gzip}, as a benchmark pod prints it last. */
    public static String logLine(byte[] gzip) {
        return SampleSet.LOG_PREFIX + Base64.getEncoder().encodeToString(gzip);
    }

    /** {@code head}, then {@code repeated} as often as fits in {@link #JSON_BYTES}, then {@code tail}; gzipped. */
    private static byte[] gzip(String head, String repeated, String tail) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(bytes)) {
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            int times = (JSON_BYTES - head.length() - tail.length()) / repeated.length();
            byte[] block = repeated.repeat(1024).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < times / 1024; i++) {
                out.write(block);
            }
            out.write(repeated.repeat(times % 1024).getBytes(StandardCharsets.US_ASCII));
            out.write(tail.getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
