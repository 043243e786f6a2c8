package dev.llmops.serving.simulator;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The simulator's ground truth as JSON for {@code GET /simulator/ground_truth}, so a client in another process (or
 * language) can be checked against it request by request. Times are {@link System#nanoTime()}, which on Linux is
 * {@code CLOCK_MONOTONIC}: the clock of every process on the machine (Python's {@code time.perf_counter()} too).
 */
final class GroundTruthJson {

    private static final JsonFactory FACTORY = new JsonFactory();

    private GroundTruthJson() {}

    static byte[] write(List<SimulatedRequest> requests) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096 + requests.size() * 512);
        try (JsonGenerator json = FACTORY.createGenerator(bytes)) {
            json.writeStartObject();
            json.writeStringField("clock", "CLOCK_MONOTONIC nanoseconds");
            json.writeArrayFieldStart("requests");
            for (SimulatedRequest request : requests) {
                json.writeStartObject();
                json.writeStringField("id", request.id());
                json.writeStringField("outcome", request.outcome().name());
                json.writeNumberField("status", request.status());
                json.writeNumberField("received_ns", request.receivedNanos());
                json.writeNumberField("started_ns", request.startedNanos());
                json.writeNumberField("prompt_tokens", request.promptTokens());
                json.writeNumberField("cached_tokens", request.cachedTokens());
                json.writeNumberField("completion_tokens", request.completionTokens());
                json.writeNumberField("reasoning_tokens", request.reasoningTokens());
                json.writeStringField("body_sha256", request.bodySha256());
                json.writeFieldName("intended_chunk_ns");
                json.writeArray(request.intendedChunkNanos(), 0, request.intendedChunkNanos().length);
                json.writeFieldName("chunk_ns");
                json.writeArray(request.sentChunkNanos(), 0, request.sentChunkNanos().length);
                json.writeFieldName("chunk_tokens");
                json.writeArray(request.chunkTokens(), 0, request.chunkTokens().length);
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
