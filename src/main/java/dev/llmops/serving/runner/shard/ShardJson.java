package dev.llmops.serving.runner.shard;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmops.serving.api.contract.SampleSet;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/** Gzipped JSON between the shards of a run and their merge, read within bounds since it comes from other processes. */
final class ShardJson {

    /** Bound of the JSON one shard's result or one stage's figures decompress to. */
    static final int MAX_JSON_BYTES = 8 * 1024 * 1024;

    private static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    static {
        JSON.getFactory()
                .setStreamReadConstraints(StreamReadConstraints.builder()
                        .maxStringLength(SampleSet.MAX_ENCODED_CHARS + 1024)
                        .maxNestingDepth(32)
                        .build());
    }

    private ShardJson() {}

    static byte[] gzip(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
            JSON.writeValue(gzip, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * {@code gzipped} read as {@code type}: at most {@link #MAX_JSON_BYTES} once decompressed.
     *
     * @throws IllegalArgumentException naming {@code what} and what is wrong with it
     */
    static <T> T read(byte[] gzipped, Class<T> type, String what) {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
            byte[] json = in.readNBytes(MAX_JSON_BYTES + 1);
            if (json.length > MAX_JSON_BYTES) {
                throw new IllegalArgumentException(what + " is over " + MAX_JSON_BYTES + " bytes of JSON");
            }
            return JSON.readValue(json, type);
        } catch (IOException e) {
            throw new IllegalArgumentException(what + " is not gzipped JSON: " + e.getMessage(), e);
        }
    }
}
