package dev.llmops.serving.runner.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import dev.llmops.serving.runner.BenchmarkListener;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.transport.RequestResult;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes every measured request as one JSON line (stage, response id, send, first-token, chunk and end times,
 * tokens), so a run can be compared request by request with a server's ground truth or another client. Times are
 * {@link System#nanoTime()}: {@code CLOCK_MONOTONIC} on Linux, shared by every process on the machine.
 */
public final class RequestLog implements BenchmarkListener, AutoCloseable {

    /** Each line is flushed into the file's buffer, not to the disk: one write per 64 KiB, not per request. */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .disable(StreamWriteFeature.FLUSH_PASSED_TO_STREAM)
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build();

    private final OutputStream out;
    private IOException failure;

    private RequestLog(OutputStream out) {
        this.out = out;
    }

    /** Creates or truncates {@code file}. */
    public static RequestLog open(Path file) throws IOException {
        return new RequestLog(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
    }

    @Override
    public synchronized void requestFinished(StagePlan stage, RequestResult result) {
        if (failure != null) {
            return;
        }
        try {
            JsonGenerator json = FACTORY.createGenerator(out);
            json.writeStartObject();
            json.writeStringField("stage", stage.name());
            json.writeStringField("id", result.responseId());
            json.writeBooleanField("ok", result.succeeded());
            json.writeStringField("failure", result.failureClass());
            json.writeNumberField("send_ns", result.sendNanos());
            if (result.firstTokenNanos() == RequestResult.NO_TIME) {
                json.writeNullField("first_token_ns");
            } else {
                json.writeNumberField("first_token_ns", result.firstTokenNanos());
            }
            json.writeNumberField("end_ns", result.endNanos());
            json.writeNumberField("prompt_tokens", result.promptTokens());
            json.writeNumberField("output_tokens", result.outputTokens());
            json.writeFieldName("chunk_ns");
            json.writeArray(result.tokenChunkNanos(), 0, result.tokenChunkNanos().length);
            json.writeFieldName("chunk_tokens");
            json.writeArray(result.tokenChunkTokens(), 0, result.tokenChunkTokens().length);
            json.writeEndObject();
            json.flush();
            out.write('\n');
        } catch (IOException e) {
            failure = e;
        }
    }

    /** Flushes and closes the file; reports the first write that failed, if any. */
    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            }
        }
        if (failure != null) {
            throw new UncheckedIOException("cannot write the request log: " + failure.getMessage(), failure);
        }
    }
}
