package dev.llmops.serving.runner.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * A shard's result comes from another process, a pod a tenant may control: reading it checks every bound and says
 * what is wrong, instead of trusting counts or allocating what a hostile line asks for.
 */
class ShardResultTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A valid result of shard 0 of 2 with one stage of one request, as gzipped JSON. */
    private static ObjectNode valid() {
        try {
            return (ObjectNode) JSON.readTree("""
                    {"format": 1, "shard": 0, "count": 2,
                     "report": {"model": "m", "base_url": "http://s", "endpoint": "/v1/chat/completions",
                                "dataset": "random", "max_tokens": 16, "temperature": 0.6, "top_p": 0.95,
                                "ignore_eos": false, "seed": 1, "workload": "abc", "started_at": "now",
                                "stages": [], "single_requests": [], "completed": 0, "failed": 0,
                                "failures": {}, "warnings": []},
                     "run_warnings": [],
                     "stages": [{"name": "c2", "mode": "CLOSED_LOOP", "concurrency": 2, "rate": 0,
                                 "max_in_flight": 0, "max_tokens": 0, "slo": false,
                                 "ttft": {"micros": [100000], "counts": [1], "sum_ns": 1.0e8, "count": 1,
                                          "max_ns": 100000000},
                                 "first_send_ns": 0, "last_send_ns": 0, "last_actual_send_ns": 0,
                                 "last_end_ns": 200000000, "issued": 1, "completed": 1, "failed": 0, "good": 0,
                                 "output_tokens": 16,
                                 "client": [{"shard": 0, "client_lag_p99_ms": 0.1, "client_lag_max_ms": 0.2,
                                             "client_cpu_seconds": 0.01, "processors": 2}]}]}
                    """);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] gzip(ObjectNode json) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            JSON.writeValue(out, json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static ObjectNode stage(ObjectNode result) {
        return (ObjectNode) result.get("stages").get(0);
    }

    private static void refused(Consumer<ObjectNode> change, String message) {
        ObjectNode result = valid();
        change.accept(result);
        assertThatThrownBy(() -> ShardResult.fromGzip(gzip(result)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @Test
    void aValidResultReadsBackIntoTheStageItDescribes() {
        ShardResult result = ShardResult.fromGzip(gzip(valid()));

        var report = result.stages().get(0).report();
        assertThat(report.completed()).isEqualTo(1);
        assertThat(report.durationSeconds()).isEqualTo(0.2);
        assertThat(report.latency("ttft").median()).isEqualTo(100.0);
        assertThat(ShardResult.fromLog("progress\n" + result.toLogLine() + "\n").shard())
                .isZero();
    }

    @Test
    void countsThatDoNotAddUpAreRefused() {
        refused(r -> ((ObjectNode) stage(r).get("ttft")).put("count", 5), "buckets hold 1 values and it claims 5");
        refused(r -> stage(r).put("completed", -1), "negative or inconsistent count");
        refused(r -> stage(r).put("good", 2), "negative or inconsistent count");
        refused(r -> ((ArrayNode) stage(r).get("ttft").get("micros")).set(0, -5), "values go from 0 to a day");
        refused(r -> r.put("shard", 2), "a shard is I/N");
        refused(r -> r.put("format", 9), "shard result format 9 is not 1");
    }

    @Test
    void aHistogramOfMoreBucketsThanAnyRunRecordsIsRefusedBeforeItIsBuilt() {
        refused(
                r -> {
                    ObjectNode ttft = (ObjectNode) stage(r).get("ttft");
                    ArrayNode micros = ttft.putArray("micros");
                    ArrayNode counts = ttft.putArray("counts");
                    for (int i = 0; i < 100_001; i++) {
                        micros.add(i);
                        counts.add(1);
                    }
                    ttft.put("count", 100_001);
                },
                "at most 100000");
    }

    @Test
    void aGzipBombIsCutAtItsBound() {
        byte[] zeros = new byte[ShardResult.MAX_JSON_BYTES + 1024];
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write('"');
            out.write(zeros);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }

        assertThatThrownBy(() -> ShardResult.fromGzip(bytes.toByteArray()))
                .hasMessageContaining("over " + ShardResult.MAX_JSON_BYTES + " bytes of JSON");
    }

    @Test
    void anOverlongLineIsRefusedUnread() {
        String line = ShardResult.LOG_PREFIX + "A".repeat(ShardResult.MAX_ENCODED_CHARS + 1);

        assertThatThrownBy(() -> ShardResult.fromLog(line)).hasMessageContaining("exceeds");
    }

    @Test
    void errorMessagesOfAStageAreCutToTheirBound() {
        ObjectNode result = valid();
        stage(result).putObject("errors").put("Http500", "x".repeat(100_000));

        ShardResult read = ShardResult.fromGzip(gzip(result));

        assertThat(read.stages().get(0).report().errors().get("Http500"))
                .hasSize(StageFigures.MAX_TEXT_CHARS + 1)
                .endsWith("…");
    }
}
