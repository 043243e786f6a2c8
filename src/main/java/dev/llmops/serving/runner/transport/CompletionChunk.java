package dev.llmops.serving.runner.transport;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields of one OpenAI-compatible completion object (a streamed chunk or a whole response) that measurement needs,
 * read with a streaming parser so that a chunk costs no tree of objects.
 */
final class CompletionChunk {

    private static final JsonFactory JSON = new JsonFactory();
    static final int ABSENT = -1;

    String id;
    boolean hasChoices;
    /** delta.content, message.content or text (completions). */
    String content;
    /** delta.reasoning_content (SGLang, DeepSeek) or delta.reasoning (newer vLLM). */
    String reasoning;

    /** choices[0].logprobs.content[].token, in order; null when the chunk has no logprobs content. */
    List<String> logprobTokens;

    String finishReason;
    int promptTokens = ABSENT;
    /** usage.prompt_tokens_details.cached_tokens when a whole number from 0 to Integer.MAX_VALUE, else ABSENT. */
    int cachedTokens = ABSENT;

    int completionTokens = ABSENT;
    int reasoningTokens = ABSENT;
    String errorMessage;
    int errorCode = ABSENT;

    static CompletionChunk parse(byte[] data, int offset, int length) throws IOException {
        CompletionChunk chunk = new CompletionChunk();
        try (JsonParser parser = JSON.createParser(data, offset, length)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("expected a JSON object");
            }
            chunk.readRoot(parser);
        }
        return chunk;
    }

    boolean isError() {
        return errorMessage != null || errorCode != ABSENT;
    }

    private void readRoot(JsonParser p) throws IOException {
        boolean errorObject = false;
        String message = null;
        int code = ABSENT;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            switch (field) {
                case "id" -> id = textOrNull(p, value);
                case "object" -> errorObject = "error".equals(textOrNull(p, value));
                case "message" -> message = textOrNull(p, value);
                case "code" -> code = intOr(p, value, ABSENT);
                case "choices" -> readChoices(p, value);
                case "usage" -> readUsage(p, value);
                case "error" -> readError(p, value);
                default -> p.skipChildren();
            }
        }
        if (errorObject) {
            errorMessage = message == null ? "error" : message;
            errorCode = code;
        }
    }

    private void readChoices(JsonParser p, JsonToken value) throws IOException {
        if (value != JsonToken.START_ARRAY) {
            p.skipChildren();
            return;
        }
        boolean first = true;
        while (p.nextToken() == JsonToken.START_OBJECT) {
            if (first) {
                hasChoices = true;
                readChoice(p);
                first = false;
            } else {
                p.skipChildren();
            }
        }
    }

    private void readChoice(JsonParser p) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            switch (field) {
                case "delta", "message" -> readMessage(p, value);
                case "text" -> content = textOrNull(p, value);
                case "finish_reason" -> finishReason = textOrNull(p, value);
                case "logprobs" -> readLogprobs(p, value);
                default -> p.skipChildren();
            }
        }
    }

    private void readMessage(JsonParser p, JsonToken value) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken fieldValue = p.nextToken();
            switch (field) {
                case "content" -> content = textOrNull(p, fieldValue);
                case "reasoning_content", "reasoning" -> reasoning = textOrNull(p, fieldValue);
                default -> p.skipChildren();
            }
        }
    }

    private void readLogprobs(JsonParser p, JsonToken value) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken fieldValue = p.nextToken();
            if (field.equals("content") && fieldValue == JsonToken.START_ARRAY) {
                logprobTokens = new ArrayList<>();
                while (p.nextToken() == JsonToken.START_OBJECT) {
                    readLogprobToken(p);
                }
            } else {
                p.skipChildren();
            }
        }
    }

    private void readLogprobToken(JsonParser p) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if (field.equals("token")) {
                String token = textOrNull(p, value);
                if (token != null) {
                    logprobTokens.add(token);
                }
            } else {
                p.skipChildren();
            }
        }
    }

    private void readUsage(JsonParser p, JsonToken value) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken fieldValue = p.nextToken();
            switch (field) {
                case "prompt_tokens" -> promptTokens = intOr(p, fieldValue, promptTokens);
                case "completion_tokens" -> completionTokens = intOr(p, fieldValue, completionTokens);
                case "reasoning_tokens" -> reasoningTokens = intOr(p, fieldValue, reasoningTokens);
                case "completion_tokens_details" -> readUsage(p, fieldValue);
                case "prompt_tokens_details" -> readPromptTokensDetails(p, fieldValue);
                default -> p.skipChildren();
            }
        }
    }

    /** The server's word, not checked against anything: a value that is no count of tokens is left out. */
    private void readPromptTokensDetails(JsonParser p, JsonToken value) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken fieldValue = p.nextToken();
            if (field.equals("cached_tokens")
                    && fieldValue == JsonToken.VALUE_NUMBER_INT
                    && p.getNumberType() == JsonParser.NumberType.INT
                    && p.getIntValue() >= 0) {
                cachedTokens = p.getIntValue();
            } else {
                p.skipChildren();
            }
        }
    }

    private void readError(JsonParser p, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_STRING) {
            errorMessage = p.getText();
            return;
        }
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        errorMessage = "error";
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken fieldValue = p.nextToken();
            switch (field) {
                case "message" -> errorMessage = textOrNull(p, fieldValue);
                case "code" -> errorCode = intOr(p, fieldValue, errorCode);
                default -> p.skipChildren();
            }
        }
    }

    private static String textOrNull(JsonParser p, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        p.skipChildren();
        return null;
    }

    private static int intOr(JsonParser p, JsonToken value, int fallback) throws IOException {
        if (value == JsonToken.VALUE_NUMBER_INT) {
            return p.getIntValue();
        }
        if (value == JsonToken.VALUE_STRING) {
            try {
                return Integer.parseInt(p.getText().trim());
            } catch (NumberFormatException e) {
                return fallback;
            }
        }
        p.skipChildren();
        return fallback;
    }
}
