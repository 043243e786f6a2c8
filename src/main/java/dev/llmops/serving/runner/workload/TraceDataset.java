package dev.llmops.serving.runner.workload;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The requests of a Mooncake-format trace: JSON lines, each {@code {"timestamp": ms, "input_length": tokens,
 * "output_length": tokens, "hash_ids": [...]}}, one hash id per {@value #BLOCK_TOKENS}-token block of the prompt, equal
 * ids meaning equal blocks. The file is untrusted: the bytes read, each line's length, the requests kept and the blocks
 * they name are bounded; a line that is not such a record is skipped and counted by reason, and the requests are put in
 * timestamp order.
 */
public final class TraceDataset {

    /** Tokens per hash id, as the Mooncake traces define their blocks. */
    public static final int BLOCK_TOKENS = 512;

    public static final long MAX_FILE_BYTES = 1L << 30;
    public static final int MAX_LINE_CHARS = 1 << 20;
    public static final int MAX_REQUESTS = 200_000;
    /** The longest prompt or output of one request, in tokens: a million-token context. */
    public static final int MAX_LENGTH_TOKENS = 1 << 20;
    /** The most hash ids the whole trace may name, so its blocks fit in a runner's memory. */
    public static final long MAX_TOTAL_BLOCKS = 8L << 20;

    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxDocumentLength(MAX_LINE_CHARS)
                    .maxStringLength(4096)
                    .maxNameLength(256)
                    .maxNestingDepth(8)
                    .maxNumberLength(32)
                    .build())
            .build();

    private static final String NOT_A_RECORD = "not a JSON object";
    private static final String NO_TIMESTAMP = "no timestamp of 0 ms or more";
    private static final String NO_LENGTHS = "no input_length and output_length from 1 to " + MAX_LENGTH_TOKENS;
    private static final String BAD_HASH_IDS = "hash_ids not a list of whole numbers";
    private static final String LONG_LINE = "a line over " + MAX_LINE_CHARS + " characters";

    /**
     * One request of the trace.
     *
     * @param timestampMillis when it arrived, in ms from the trace's clock
     * @param inputLength prompt tokens
     * @param outputLength output tokens
     * @param hashIds the ids of its prompt's blocks, in order; may cover fewer tokens than {@code inputLength}
     */
    public record Request(double timestampMillis, int inputLength, int outputLength, long[] hashIds) {}

    private final String source;
    private final List<Request> requests = new ArrayList<>();
    private final ReadingAccount account;
    private long blocks;

    private TraceDataset(String source) {
        this.source = source;
        this.account = new ReadingAccount(source, "requests", "lines");
    }

    /**
     * Reads {@code file}.
     *
     * @throws IllegalArgumentException when the file is too large or holds no usable request; the message completes a
     *     sentence starting with the file's name
     * @throws IOException when the file cannot be read
     */
    public static TraceDataset read(Path file) throws IOException {
        try (InputStream in = ReadingAccount.open(file, MAX_FILE_BYTES, "trace")) {
            return read(in, file.toString());
        }
    }

    /** Reads a trace from {@code in}; {@code source} names it in messages. */
    static TraceDataset read(InputStream in, String source) throws IOException {
        TraceDataset trace = new TraceDataset(source);
        Reader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
        StringBuilder line = new StringBuilder();
        boolean overlong = false;
        long chars = 0;
        for (int c = reader.read(); ; c = reader.read()) {
            if (c == '\n' || c == -1) {
                if (overlong) {
                    trace.account.read();
                    trace.account.skip(LONG_LINE);
                } else if (!line.toString().isBlank() && !trace.add(line.toString())) {
                    break;
                }
                line.setLength(0);
                overlong = false;
                if (c == -1) {
                    break;
                }
            } else if (line.length() < MAX_LINE_CHARS) {
                line.append((char) c);
            } else {
                overlong = true;
            }
            if (++chars > MAX_FILE_BYTES) {
                trace.account.stop("stopped after " + MAX_FILE_BYTES + " characters");
                break;
            }
        }
        if (trace.requests.isEmpty()) {
            throw new IllegalArgumentException("holds no usable trace request: " + trace.account.text(0));
        }
        trace.requests.sort(Comparator.comparingDouble(Request::timestampMillis));
        return trace;
    }

    /** Parses one line; false once no more requests may be kept. */
    private boolean add(String line) {
        if (requests.size() == MAX_REQUESTS || blocks >= MAX_TOTAL_BLOCKS) {
            account.stop("kept the first " + requests.size() + " usable requests (at most " + MAX_REQUESTS + " and "
                    + MAX_TOTAL_BLOCKS + " hash ids); the rest was not read");
            return false;
        }
        account.read();
        try {
            String problem = parse(line);
            if (problem != null) {
                account.skip(problem);
            }
        } catch (JsonProcessingException e) {
            account.skip("not JSON");
        } catch (IOException e) {
            throw new IllegalStateException("reading a string cannot fail", e);
        }
        return true;
    }

    /** Keeps the request of one line; null when it was kept, else why it was skipped. */
    private String parse(String line) throws IOException {
        Double timestamp = null;
        Integer input = null;
        Integer output = null;
        long[] hashIds = new long[0];
        try (JsonParser json = JSON.createParser(line)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                return NOT_A_RECORD;
            }
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String field = json.currentName();
                JsonToken value = json.nextToken();
                switch (field) {
                    case "timestamp" -> timestamp = value.isNumeric() ? json.getDoubleValue() : null;
                    case "input_length" -> input = length(json, value);
                    case "output_length" -> output = length(json, value);
                    case "hash_ids" -> {
                        hashIds = hashIds(json, value);
                        if (hashIds == null) {
                            return BAD_HASH_IDS;
                        }
                    }
                    default -> json.skipChildren();
                }
            }
            if (json.nextToken() != null) {
                return NOT_A_RECORD;
            }
        }
        if (timestamp == null || !(timestamp >= 0) || timestamp.isInfinite()) {
            return NO_TIMESTAMP;
        }
        if (input == null || output == null) {
            return NO_LENGTHS;
        }
        long usable = Math.min(hashIds.length, (input + BLOCK_TOKENS - 1) / BLOCK_TOKENS);
        long[] kept = usable == hashIds.length ? hashIds : Arrays.copyOf(hashIds, (int) usable);
        blocks += kept.length;
        requests.add(new Request(timestamp, input, output, kept));
        return null;
    }

    private static Integer length(JsonParser json, JsonToken value) throws IOException {
        if (value != JsonToken.VALUE_NUMBER_INT) {
            json.skipChildren();
            return null;
        }
        long length = json.getLongValue();
        return length >= 1 && length <= MAX_LENGTH_TOKENS ? (int) length : null;
    }

    /** The ids of a hash_ids array, or null when it is not an array of whole numbers. */
    private static long[] hashIds(JsonParser json, JsonToken value) throws IOException {
        if (value != JsonToken.START_ARRAY) {
            json.skipChildren();
            return null;
        }
        long[] ids = new long[16];
        int count = 0;
        for (JsonToken token = json.nextToken(); token != JsonToken.END_ARRAY; token = json.nextToken()) {
            if (token != JsonToken.VALUE_NUMBER_INT) {
                json.skipChildren();
                return null;
            }
            if (count == ids.length) {
                ids = Arrays.copyOf(ids, ids.length * 2);
            }
            ids[count++] = json.getLongValue();
        }
        return Arrays.copyOf(ids, count);
    }

    /** The usable requests, in timestamp order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** Usable requests. */
    public int size() {
        return requests.size();
    }

    /** Lines that were skipped, by reason. */
    public Map<String, Integer> skipped() {
        return account.skipped();
    }

    /** What a person should know about the reading: lines skipped and where it stopped early; empty when neither. */
    public List<String> warnings() {
        return account.warnings("trace", size());
    }

    /** Equal when read from the same source with the same requests, so configurations compare by what they send. */
    @Override
    public boolean equals(Object other) {
        if (!(other instanceof TraceDataset that) || !source.equals(that.source) || size() != that.size()) {
            return false;
        }
        for (int i = 0; i < size(); i++) {
            Request mine = requests.get(i);
            Request theirs = that.requests.get(i);
            if (mine.timestampMillis() != theirs.timestampMillis()
                    || mine.inputLength() != theirs.inputLength()
                    || mine.outputLength() != theirs.outputLength()
                    || !Arrays.equals(mine.hashIds(), theirs.hashIds())) {
                return false;
            }
        }
        return account.text(size()).equals(that.account.text(that.size()));
    }

    @Override
    public int hashCode() {
        return source.hashCode() * 31 + size();
    }

    @Override
    public String toString() {
        return "trace " + source + " (" + size() + " requests)";
    }
}
