package dev.llmops.serving.api.contract;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a {@link SampleSet} from untrusted JSON (a benchmark pod's log, a ConfigMap) with a streaming parser, checking
 * every bound as each value arrives, so what a document holds in memory never exceeds what a real run writes: at most
 * {@link SampleSet#MAX_STAGES} stages with {@link SampleSet#MAX_TOTAL_SAMPLES} requests in all, {@link
 * SampleSet#MAX_QUALITY_OUTPUTS} quality outputs of at most {@link QualityOutput#MAX_TOKENS} pieces each, and short
 * names. Every value must have its own type: a number where text belongs is an error, never coerced.
 */
final class SampleSetReader {

    static final int MAX_NAME_CHARS = 64;
    static final int MAX_WORKLOAD_CHARS = 128;

    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(4)
                    .maxStringLength(QualityOutput.MAX_PIECE_CHARS * 4)
                    .maxNameLength(MAX_NAME_CHARS)
                    .maxNumberLength(32)
                    .maxDocumentLength(SampleSet.MAX_JSON_BYTES)
                    .build())
            .build();

    private final JsonParser parser;
    private int samples;
    private int qualityTokens;

    private SampleSetReader(JsonParser parser) {
        this.parser = parser;
    }

    /** The samples in {@code json}; an {@link IllegalArgumentException} names the first bound or type broken. */
    static SampleSet read(InputStream json) {
        try (JsonParser parser = JSON.createParser(json)) {
            SampleSet samples = new SampleSetReader(parser).document();
            if (parser.nextToken() != null) {
                throw new IllegalArgumentException("samples carry data after their JSON object");
            }
            return samples;
        } catch (IOException e) {
            throw new IllegalArgumentException("samples are not valid JSON: " + e.getMessage(), e);
        }
    }

    private SampleSet document() throws IOException {
        expect(parser.nextToken(), JsonToken.START_OBJECT, "the samples");
        Integer version = null;
        String workload = null;
        List<StageSamples> stages = List.of();
        List<QualityOutput> quality = List.of();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (field) {
                case "v" -> version = integer(value, "v");
                case "workload" -> workload = text(value, "workload", MAX_WORKLOAD_CHARS);
                case "stages" -> stages = stages(value);
                case "quality" -> quality = quality(value);
                default -> parser.skipChildren();
            }
        }
        if (version == null) {
            throw new IllegalArgumentException("samples carry no format version");
        }
        return new SampleSet(version, workload, stages, quality);
    }

    private List<StageSamples> stages(JsonToken token) throws IOException {
        expect(token, JsonToken.START_ARRAY, "stages");
        List<StageSamples> stages = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            if (stages.size() == SampleSet.MAX_STAGES) {
                throw new IllegalArgumentException("samples have more than " + SampleSet.MAX_STAGES + " stages");
            }
            stages.add(stage(parser.currentToken()));
        }
        return stages;
    }

    private StageSamples stage(JsonToken token) throws IOException {
        expect(token, JsonToken.START_OBJECT, "a stage");
        String name = null;
        int[] index = null;
        int[] tokens = null;
        double[] ttft = null;
        double[] tpot = null;
        double[] e2e = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (field) {
                case "n" -> name = text(value, "a stage name", MAX_NAME_CHARS);
                case "i" -> index = integers(value, "i");
                case "tok" -> tokens = integers(value, "tok");
                case "ttft" -> ttft = decimals(value, "ttft");
                case "tpot" -> tpot = decimals(value, "tpot");
                case "e2e" -> e2e = decimals(value, "e2e");
                default -> parser.skipChildren();
            }
        }
        StageSamples stage = new StageSamples(name, index, tokens, ttft, tpot, e2e);
        stage.check();
        samples += stage.size();
        if (samples > SampleSet.MAX_TOTAL_SAMPLES) {
            throw new IllegalArgumentException(
                    "samples hold more than " + SampleSet.MAX_TOTAL_SAMPLES + " requests in all");
        }
        return stage;
    }

    private List<QualityOutput> quality(JsonToken token) throws IOException {
        expect(token, JsonToken.START_ARRAY, "quality");
        List<QualityOutput> outputs = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            if (outputs.size() == SampleSet.MAX_QUALITY_OUTPUTS) {
                throw new IllegalArgumentException(
                        "samples have more than " + SampleSet.MAX_QUALITY_OUTPUTS + " quality outputs");
            }
            outputs.add(qualityOutput(parser.currentToken()));
        }
        return outputs;
    }

    private QualityOutput qualityOutput(JsonToken token) throws IOException {
        expect(token, JsonToken.START_OBJECT, "a quality output");
        int prompt = 0;
        List<String> tokens = List.of();
        String finish = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (field) {
                case "p" -> prompt = integer(value, "p");
                case "tokens" -> tokens = pieces(value);
                case "finish" -> finish = text(value, "finish", MAX_NAME_CHARS);
                default -> parser.skipChildren();
            }
        }
        return new QualityOutput(prompt, tokens, finish);
    }

    private List<String> pieces(JsonToken token) throws IOException {
        expect(token, JsonToken.START_ARRAY, "tokens");
        List<String> pieces = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            if (pieces.size() == QualityOutput.MAX_TOKENS) {
                throw new IllegalArgumentException(
                        "a quality output has more than " + QualityOutput.MAX_TOKENS + " tokens");
            }
            if (++qualityTokens > SampleSet.MAX_QUALITY_OUTPUTS * QualityOutput.MAX_TOKENS) {
                throw new IllegalArgumentException("quality outputs hold too many tokens in all");
            }
            String piece = text(parser.currentToken(), "a token", QualityOutput.MAX_PIECE_CHARS);
            if (piece == null) {
                throw new IllegalArgumentException("a quality output holds a null token");
            }
            pieces.add(piece);
        }
        return pieces;
    }

    private int[] integers(JsonToken token, String column) throws IOException {
        expect(token, JsonToken.START_ARRAY, column);
        int[] values = new int[16];
        int n = 0;
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            values = room(values, n, column);
            values[n++] = integer(parser.currentToken(), column);
        }
        return Arrays.copyOf(values, n);
    }

    private double[] decimals(JsonToken token, String column) throws IOException {
        expect(token, JsonToken.START_ARRAY, column);
        double[] values = new double[16];
        int n = 0;
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            JsonToken value = parser.currentToken();
            if (value != JsonToken.VALUE_NUMBER_INT && value != JsonToken.VALUE_NUMBER_FLOAT) {
                throw new IllegalArgumentException(column + " holds " + value + " where a number belongs");
            }
            if (n == values.length) {
                values = Arrays.copyOf(values, grown(n, column));
            }
            values[n++] = parser.getDoubleValue();
        }
        return Arrays.copyOf(values, n);
    }

    private static int[] room(int[] values, int n, String column) {
        return n < values.length ? values : Arrays.copyOf(values, grown(n, column));
    }

    /** A column's next capacity; no column may exceed a stage's bound, checked before the array grows past it. */
    private static int grown(int n, String column) {
        if (n >= StageSamples.MAX_REQUESTS) {
            throw new IllegalArgumentException(
                    "column " + column + " has more than " + StageSamples.MAX_REQUESTS + " values");
        }
        return Math.min(StageSamples.MAX_REQUESTS, n * 2);
    }

    private int integer(JsonToken token, String what) throws IOException {
        if (token != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() != JsonParser.NumberType.INT) {
            throw new IllegalArgumentException(what + " holds " + token + " where an integer belongs");
        }
        return parser.getIntValue();
    }

    private String text(JsonToken token, String what, int maxChars) throws IOException {
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        if (token != JsonToken.VALUE_STRING) {
            throw new IllegalArgumentException(what + " holds " + token + " where text belongs");
        }
        String value = parser.getText();
        if (value.length() > maxChars) {
            throw new IllegalArgumentException(what + " is longer than " + maxChars + " characters");
        }
        return value;
    }

    private static void expect(JsonToken token, JsonToken expected, String what) {
        if (token != expected) {
            throw new IllegalArgumentException(what + " must be " + describe(expected) + ", not " + token);
        }
    }

    private static String describe(JsonToken token) {
        return token == JsonToken.START_ARRAY ? "an array" : "an object";
    }
}
