package dev.llmops.serving.runner.shard;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.llmops.serving.api.contract.EncodedLogLine;
import dev.llmops.serving.api.contract.RunnerFlags;
import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.runner.output.BenchmarkReport;
import dev.llmops.serving.runner.output.StageReport;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * What one shard of a run hands over for the merge: its run's description (model, workload, single-request phase,
 * warnings) and each stage's {@link StageFigures}, with its samples. Written as gzipped JSON, to a file or as the last
 * line of the shard's log behind {@link #LOG_PREFIX}; read back from another process within bounds.
 *
 * @param report the shard's report without its stages: what the merged report's run is described by
 * @param runWarnings the shard's warnings that are not a stage's
 * @param samples the shard's samples, base64 of their gzipped JSON; null when it kept none
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ShardResult(
        @JsonProperty("format") int format,
        @JsonProperty("shard") int shard,
        @JsonProperty("count") int count,
        @JsonProperty("report") BenchmarkReport report,
        @JsonProperty("run_warnings") List<String> runWarnings,
        @JsonProperty("stages") List<StageFigures> stages,
        @JsonProperty("samples") String samples) {

    public static final int FORMAT_VERSION = 1;
    public static final String LOG_PREFIX = "LLM-SERVING-SHARD v1 ";
    /** Bound of the encoded line: the samples' 768 KiB and the stages' histograms. */
    public static final int MAX_ENCODED_CHARS = 2 * 1024 * 1024;
    /** Bound of the JSON a line decompresses to. */
    static final int MAX_JSON_BYTES = ShardJson.MAX_JSON_BYTES;

    /** Its single stage, its levels and rates, and the probes of a capacity search. */
    private static final int MAX_STAGES = 1 + RunnerFlags.MAX_LEVELS + RunnerFlags.MAX_MAX_PROBES;

    private static final int MAX_WARNINGS = 256;

    /** Shard {@code shard}'s result: its report, the figures of its stages in order and its samples (or null). */
    public static ShardResult of(Shard shard, BenchmarkReport report, List<StageFigures> stages, SampleSet samples) {
        List<String> runWarnings = new ArrayList<>(report.warnings());
        report.stages().forEach(stage -> stage.warnings().forEach(runWarnings::remove));
        stages.forEach(StageFigures::freeze);
        return new ShardResult(
                FORMAT_VERSION,
                shard.index(),
                shard.count(),
                report.withStages(List.<StageReport>of(), List.of(), null),
                List.copyOf(runWarnings),
                List.copyOf(stages),
                samples == null ? null : Base64.getEncoder().encodeToString(samples.toGzip()));
    }

    /** Gzipped JSON. */
    public byte[] toGzip() {
        return ShardJson.gzip(this);
    }

    public String toLogLine() {
        return LOG_PREFIX + Base64.getEncoder().encodeToString(toGzip());
    }

    /**
     * Reads {@link #toGzip()}'s output, from another process: at most {@link #MAX_JSON_BYTES} once decompressed, a
     * known format, a shard within its count, at most {@value #MAX_STAGES} stages whose figures are checked.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public static ShardResult fromGzip(byte[] gzipped) {
        return ShardJson.read(gzipped, ShardResult.class, "a shard result").checked();
    }

    /** Finds the last shard line in a log tail and reads it; null when the log has none. */
    public static ShardResult fromLog(String log) {
        return EncodedLogLine.readLast(log, LOG_PREFIX, MAX_ENCODED_CHARS, "the shard line", ShardResult::fromGzip);
    }

    /** The shard's samples, read within the samples' own bounds; null when it kept none. */
    public SampleSet sampleSet() {
        if (samples == null) {
            return null;
        }
        if (samples.length() > SampleSet.MAX_ENCODED_CHARS) {
            throw new IllegalArgumentException(
                    "shard " + shard + "'s samples exceed " + SampleSet.MAX_ENCODED_CHARS + " characters");
        }
        return SampleSet.fromGzip(Base64.getDecoder().decode(samples));
    }

    private ShardResult checked() {
        if (format != FORMAT_VERSION) {
            throw new IllegalArgumentException("shard result format " + format + " is not " + FORMAT_VERSION);
        }
        new Shard(shard, count);
        if (report == null || stages == null || stages.size() > MAX_STAGES) {
            throw new IllegalArgumentException(
                    "shard " + shard + "'s result has no report, or no stages, or more than " + MAX_STAGES);
        }
        if (runWarnings != null && runWarnings.size() > MAX_WARNINGS) {
            throw new IllegalArgumentException("shard " + shard + "'s result has over " + MAX_WARNINGS + " warnings");
        }
        for (StageFigures stage : stages) {
            if (stage == null) {
                throw new IllegalArgumentException("shard " + shard + "'s result has an empty stage");
            }
            stage.thaw();
        }
        return this;
    }
}
