package dev.llmops.serving.api.contract;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The per-request figures of a run and the outputs of its quality stage: what a paired comparison of two runs needs
 * and a 4 KiB termination message cannot hold. A benchmark pod prints it as the last line of its log, gzipped and
 * base64-encoded behind {@link #LOG_PREFIX}; the operator keeps it in a ConfigMap owned by the run.
 *
 * @param version {@value #FORMAT_VERSION}
 * @param workload digest of what decides each request's content (dataset, seed, sampling, prompts): two runs are
 *     paired request by request only when their digests are equal
 * @param stages the measured stages, in the order they ran
 * @param quality the quality stage's greedy outputs, one per single-request prompt; empty when it did not run
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SampleSet(
        @JsonProperty("v") int version,
        @JsonProperty("workload") String workload,
        @JsonProperty("stages") List<StageSamples> stages,
        @JsonProperty("quality") List<QualityOutput> quality) {

    public static final int FORMAT_VERSION = 1;
    public static final String LOG_PREFIX = "LLM-SERVING-SAMPLES v1 ";
    /** Bound of the encoded line; a ConfigMap holds 1 MiB. */
    public static final int MAX_ENCODED_CHARS = 768 * 1024;
    /** Bound of the decoded JSON, against a gzip bomb. */
    public static final int MAX_JSON_BYTES = 8 * 1024 * 1024;
    /**
     * Bound of the stages: a run of the API plans at most 97 (single, 32 sweep levels, 64 capacity probes), and each
     * stage is a bootstrap when two runs are compared.
     */
    public static final int MAX_STAGES = 128;
    /** Bound of the requests of all stages together: with the encoded line's bound a real run keeps far fewer. */
    public static final int MAX_TOTAL_SAMPLES = 128 * 1024;
    /** Bound of the quality outputs: one per single-request prompt, of which a run has at most 32. */
    public static final int MAX_QUALITY_OUTPUTS = 32;

    private static final ObjectMapper JSON = new ObjectMapper();

    public SampleSet {
        stages = stages == null ? List.of() : List.copyOf(stages);
        quality = quality == null ? List.of() : List.copyOf(quality);
    }

    /** The stage of that name, or null. */
    public StageSamples stage(String name) {
        return stages.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
    }

    /** Gzipped JSON, as a ConfigMap's binary data holds it. */
    public byte[] toGzip() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
            JSON.writeValue(gzip, this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The log line: {@link #LOG_PREFIX} and the base64 of {@link #toGzip()}. */
    public String toLogLine() {
        return LOG_PREFIX + Base64.getEncoder().encodeToString(toGzip());
    }

    /**
     * Reads {@link #toGzip()}'s output as it decompresses, within the bounds of {@link SampleSetReader}; an {@link
     * IllegalArgumentException} says what is wrong with it.
     */
    public static SampleSet fromGzip(byte[] gzipped) {
        SampleSet samples;
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
            samples = SampleSetReader.read(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("samples are not gzipped JSON: " + e.getMessage(), e);
        }
        if (samples.version() != FORMAT_VERSION) {
            throw new IllegalArgumentException(
                    "samples format version " + samples.version() + " is not " + FORMAT_VERSION);
        }
        return samples;
    }

    /** Finds the last sample line in a log tail and reads it; null when the log has none. */
    public static SampleSet fromLog(String log) {
        return EncodedLogLine.readLast(log, LOG_PREFIX, MAX_ENCODED_CHARS, "sample line", SampleSet::fromGzip);
    }
}
