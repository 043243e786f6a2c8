package dev.llmops.serving.api.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Samples from an untrusted source are read within bounds: a document that breaks one is refused as it is read,
 * naming the bound, and before it holds more memory than a real run's samples; a real run's largest samples still read.
 */
class SampleSetReaderTest {

    /** What reading any samples may allocate in all; a real run's largest samples take a few MiB. */
    private static final long MAX_ALLOCATED_BYTES = 48L * 1024 * 1024;

    @Test
    void numbersWhereTokensBelongAreRefusedNotCoercedToText() {
        assertRefused(SampleBombs::numbersAsTokens, "a token holds VALUE_NUMBER_INT where text belongs");
    }

    @Test
    void aQualityOutputOfMoreTokensThanTheRunnerKeepsIsRefused() {
        assertRefused(SampleBombs::tokens, "a quality output has more than " + QualityOutput.MAX_TOKENS + " tokens");
    }

    @Test
    void moreStagesThanARunCanPlanAreRefused() {
        assertRefused(SampleBombs::stages, "samples have more than " + SampleSet.MAX_STAGES + " stages");
    }

    @Test
    void moreQualityOutputsThanARunHasPromptsAreRefused() {
        assertRefused(
                SampleBombs::qualityOutputs,
                "samples have more than " + SampleSet.MAX_QUALITY_OUTPUTS + " quality outputs");
    }

    @Test
    void aColumnLongerThanAStagesBoundIsRefusedBeforeItGrowsPastIt() {
        assertRefused(SampleBombs::longColumn, "column i has more than " + StageSamples.MAX_REQUESTS + " values");
    }

    @Test
    void moreRequestsInAllThanTheBoundAreRefusedThoughEachStageIsWithinItsOwn() {
        int stages = SampleSet.MAX_TOTAL_SAMPLES / StageSamples.MAX_REQUESTS + 1;
        StringBuilder json = new StringBuilder("{\"v\":1,\"stages\":[");
        String column = String.join(",", Collections.nCopies(StageSamples.MAX_REQUESTS, "1"));
        for (int s = 0; s < stages; s++) {
            json.append(s == 0 ? "" : ",")
                    .append("{\"n\":\"c")
                    .append(s)
                    .append("\",\"i\":[")
                    .append(column)
                    .append("],\"tok\":[")
                    .append(column)
                    .append("],\"ttft\":[")
                    .append(column)
                    .append("],\"tpot\":[")
                    .append(column)
                    .append("],\"e2e\":[")
                    .append(column)
                    .append("]}");
        }
        json.append("]}");

        assertRefused(
                () -> gzip(json.toString()), "samples hold more than " + SampleSet.MAX_TOTAL_SAMPLES + " requests");
    }

    @Test
    void namesTypesAndShapeAreChecked() {
        assertThatThrownBy(() -> SampleSet.fromGzip(gzip("{\"v\":1,\"stages\":[{\"n\":\"" + "c".repeat(65) + "\"}]}")))
                .hasMessageContaining("a stage name is longer than 64 characters");
        assertThatThrownBy(() -> SampleSet.fromGzip(gzip("{\"v\":\"1\"}")))
                .hasMessageContaining("v holds VALUE_STRING where an integer belongs");
        assertThatThrownBy(() -> SampleSet.fromGzip(gzip("{\"v\":1,\"stages\":[{\"n\":\"c8\",\"ttft\":[\"1\"]}]}")))
                .hasMessageContaining("ttft holds VALUE_STRING where a number belongs");
        assertThatThrownBy(() -> SampleSet.fromGzip(gzip("{\"v\":1,\"stages\":{}}")))
                .hasMessageContaining("stages must be an array");
        assertThatThrownBy(() -> SampleSet.fromGzip(gzip("{\"v\":1} {\"v\":1}")))
                .hasMessageContaining("data after their JSON object");
        assertThatThrownBy(() -> SampleSet.fromGzip(gzip("{\"v\":1,\"x\":" + "[".repeat(10) + "]".repeat(10) + "}")))
                .hasMessageContaining("nesting depth");
        assertThatThrownBy(() -> SampleSet.fromGzip(gzip("{\"workload\":\"w\"}")))
                .hasMessageContaining("no format version");
        assertThatThrownBy(() -> SampleSet.fromGzip(gzip("{\"v\":2}")))
                .hasMessageContaining("samples format version 2 is not 1");
        assertThatThrownBy(() -> SampleSet.fromGzip(gzip("{\"v\":1,\"stages\":[{\"n\":\"c8\",\"i\":[0,1],\"tok\":[9],"
                        + "\"ttft\":[1,2],\"tpot\":[1,2],\"e2e\":[1,2]}]}")))
                .hasMessageContaining("stage c8 has columns of different lengths");
        assertThatThrownBy(() -> SampleSet.fromGzip(gzip("{\"v\":1,\"stages\":[{\"n\":\"c8\",\"i\":[0]}]}")))
                .hasMessageContaining("stage samples miss a column");
        assertThatThrownBy(() -> SampleSet.fromGzip("not gzip".getBytes(StandardCharsets.US_ASCII)))
                .hasMessageContaining("samples are not gzipped JSON");
        assertThatThrownBy(() -> SampleSet.fromLog(SampleSet.LOG_PREFIX + "A".repeat(SampleSet.MAX_ENCODED_CHARS + 4)))
                .hasMessage("sample line exceeds " + SampleSet.MAX_ENCODED_CHARS + " characters");
    }

    @Test
    void theLargestSamplesARunKeepsReadBackWithUnknownFieldsSkipped() {
        List<StageSamples> stages = new ArrayList<>();
        for (int s = 0; s < 24; s++) {
            int n = StageSamples.MAX_REQUESTS;
            stages.add(new StageSamples(
                    "c" + (s + 1),
                    IntStream.range(0, n).toArray(),
                    IntStream.range(0, n).map(i -> 4096).toArray(),
                    IntStream.range(0, n).mapToDouble(i -> 120.5 + i).toArray(),
                    IntStream.range(0, n).mapToDouble(i -> 8.25).toArray(),
                    IntStream.range(0, n).mapToDouble(i -> 33_000.125 + i).toArray()));
        }
        List<QualityOutput> quality = IntStream.range(0, SampleSet.MAX_QUALITY_OUTPUTS)
                .mapToObj(p ->
                        new QualityOutput(p, Collections.nCopies(QualityOutput.MAX_TOKENS, "x".repeat(64)), "length"))
                .toList();
        SampleSet largest = new SampleSet(SampleSet.FORMAT_VERSION, "3f9a1c2b7d4e5f60", stages, quality);

        byte[] gzip = largest.toGzip();
        SampleSet read = allocatingAtMost(() -> SampleSet.fromGzip(gzip));
        SampleSet withUnknownFields =
                SampleSet.fromGzip(gzip("{\"v\":1,\"future\":{\"a\":[1,2]},\"stages\":[{\"n\":\"c8\","
                        + "\"i\":[3],\"tok\":[9],\"ttft\":[1.5],\"tpot\":[2],\"e2e\":[30],\"new\":\"x\"}],"
                        + "\"quality\":[{\"p\":1,\"tokens\":[\"a\"],\"finish\":\"stop\",\"later\":true}]}"));

        assertThat(read.stages()).hasSize(24);
        assertThat(read.stage("c24").ttftMillis())
                .containsExactly(stages.get(23).ttftMillis());
        assertThat(read.quality()).isEqualTo(quality);
        assertThat(withUnknownFields.stage("c8").index()).containsExactly(3);
        assertThat(withUnknownFields.stage("c8").e2eMillis()).containsExactly(30.0);
        assertThat(withUnknownFields.quality()).containsExactly(new QualityOutput(1, List.of("a"), "stop"));
    }

    private static void assertRefused(Supplier<byte[]> bomb, String because) {
        byte[] gzip = bomb.get();
        assertThat(gzip.length).as("small on the wire").isLessThan(SampleSet.MAX_ENCODED_CHARS);
        assertThatThrownBy(() -> allocatingAtMost(() -> SampleSet.fromGzip(gzip)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(because);
        String line = SampleBombs.logLine(gzip);
        assertThatThrownBy(() -> allocatingAtMost(() -> SampleSet.fromLog("PROGRESS 6/6\n" + line + "\n")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(because);
    }

    /** Runs {@code read} on this thread and fails when it allocated more than {@link #MAX_ALLOCATED_BYTES}. */
    private static <T> T allocatingAtMost(Supplier<T> read) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        try {
            return read.get();
        } finally {
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertThat(allocated).as("bytes allocated while reading").isLessThan(MAX_ALLOCATED_BYTES);
        }
    }

    private static byte[] gzip(String json) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(json.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return bytes.toByteArray();
    }
}
