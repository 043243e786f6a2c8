package dev.llmops.serving.runner.workload;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The usable conversations of a ShareGPT-format file: each one's first user turn (the prompt) and the length of the
 * reply that follows it. The file is untrusted, so it is read with a streaming parser and every quantity is bounded:
 * the bytes read, the length of any string, the conversations kept and the characters they hold.
 *
 * <p>The format is a JSON array of records, each with {@code conversations} (or {@code messages}): a list of turns
 * {@code {"from": "human"|"gpt", "value": "..."}} or {@code {"role": "user"|"assistant", "content": "..."}}. Records
 * without a user turn, without a reply after it, or with a prompt over {@value #MAX_PROMPT_CHARS} characters are
 * skipped and counted; turns of the wrong type are ignored. A JSON error ends the reading: the conversations before it
 * are kept and a warning says where it stopped.
 */
public final class ShareGptDataset {

    public static final long MAX_FILE_BYTES = 1L << 30;
    public static final int MAX_CONVERSATIONS = 100_000;
    public static final int MAX_PROMPT_CHARS = 65_536;
    public static final long MAX_TOTAL_PROMPT_CHARS = 64L << 20;
    /** Longest string the parser reads; longer ones (prompts, replies, anything) end the reading. */
    static final int MAX_STRING_CHARS = 1 << 20;
    /** A reply's length in tokens is estimated as its characters divided by this, rounded up. */
    public static final int CHARS_PER_TOKEN = 4;

    private static final Set<String> USER_ROLES = Set.of("human", "user");
    private static final Set<String> REPLY_ROLES = Set.of("gpt", "assistant", "chatgpt", "bard", "bing", "model");
    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxDocumentLength(MAX_FILE_BYTES)
                    .maxStringLength(MAX_STRING_CHARS)
                    .maxNameLength(1024)
                    .maxNestingDepth(64)
                    .build())
            .build();

    private final String source;
    private final List<String> prompts = new ArrayList<>();
    private int[] replyTokens = new int[1024];
    private long promptChars;
    private final ReadingAccount account;

    private ShareGptDataset(String source) {
        this.source = source;
        this.account = new ReadingAccount(source, "conversations", "records");
    }

    /**
     * Reads {@code file}.
     *
     * @throws IllegalArgumentException when the file is too large, not a JSON array or holds no usable conversation;
     *     the message completes a sentence starting with the file's name
     * @throws IOException when the file cannot be read
     */
    public static ShareGptDataset read(Path file) throws IOException {
        try (InputStream in = ReadingAccount.open(file, MAX_FILE_BYTES, "dataset")) {
            return read(in, file.toString());
        }
    }

    /** Reads a ShareGPT document from {@code in}; {@code source} names it in messages. */
    static ShareGptDataset read(InputStream in, String source) throws IOException {
        ShareGptDataset dataset = new ShareGptDataset(source);
        try (JsonParser json = JSON.createParser(in)) {
            JsonToken first;
            try {
                first = json.nextToken();
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("is not JSON: " + e.getOriginalMessage());
            }
            if (first != JsonToken.START_ARRAY) {
                throw new IllegalArgumentException("is not a JSON array of ShareGPT conversations");
            }
            dataset.readRecords(json);
        }
        if (dataset.size() == 0) {
            throw new IllegalArgumentException("holds no usable conversation: " + dataset.account.text(0));
        }
        return dataset;
    }

    private void readRecords(JsonParser json) throws IOException {
        try {
            for (JsonToken token = json.nextToken(); token != JsonToken.END_ARRAY; token = json.nextToken()) {
                if (token == null) {
                    account.stop("the file ends inside the array");
                    return;
                }
                if (size() == MAX_CONVERSATIONS || promptChars >= MAX_TOTAL_PROMPT_CHARS) {
                    account.stop("kept the first " + size() + " usable conversations (at most " + MAX_CONVERSATIONS
                            + " and " + MAX_TOTAL_PROMPT_CHARS + " prompt characters); the rest was not read");
                    return;
                }
                account.read();
                String problem = token == JsonToken.START_OBJECT ? readRecord(json) : skip(json, NOT_A_RECORD);
                if (problem != null) {
                    account.skip(problem);
                }
            }
        } catch (JsonProcessingException e) {
            account.skip("cut short by the JSON error");
            JsonLocation at = e.getLocation() != null ? e.getLocation() : json.currentLocation();
            account.stop("stopped reading at line " + at.getLineNr() + ", column " + at.getColumnNr() + ": "
                    + e.getOriginalMessage());
        }
    }

    private static final String NOT_A_RECORD = "not an object with a conversations array";
    private static final String NO_PROMPT = "no user turn with text";
    private static final String NO_REPLY = "no reply after the user turn";
    private static final String LONG_PROMPT = "a prompt over " + MAX_PROMPT_CHARS + " characters";

    /** Reads one record from its START_OBJECT; null when it was kept, else why it was skipped. */
    private String readRecord(JsonParser json) throws IOException {
        Turn[] pair = null;
        boolean turnsSeen = false;
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String field = json.currentName();
            JsonToken value = json.nextToken();
            if (!turnsSeen && (field.equals("conversations") || field.equals("messages"))) {
                turnsSeen = true;
                if (value == JsonToken.START_ARRAY) {
                    pair = readTurns(json);
                    continue;
                }
            }
            json.skipChildren();
        }
        if (pair == null) {
            return NOT_A_RECORD;
        }
        if (pair[0] == null) {
            return NO_PROMPT;
        }
        if (pair[1] == null) {
            return NO_REPLY;
        }
        if (pair[0].text.length() > MAX_PROMPT_CHARS) {
            return LONG_PROMPT;
        }
        keep(pair[0].text, pair[1].text.length());
        return null;
    }

    /** Reads the turns from their START_ARRAY to its end: the first user turn with text and the next reply. */
    private Turn[] readTurns(JsonParser json) throws IOException {
        Turn[] pair = new Turn[2];
        for (JsonToken token = json.nextToken();
                token != null && token != JsonToken.END_ARRAY;
                token = json.nextToken()) {
            if (token != JsonToken.START_OBJECT || pair[1] != null) {
                json.skipChildren();
                continue;
            }
            Turn turn = readTurn(json, pair[0] == null ? USER_ROLES : REPLY_ROLES);
            if (turn == null) {
                continue;
            }
            if (pair[0] == null && !turn.text.isBlank()) {
                pair[0] = turn;
            } else if (pair[0] != null) {
                pair[1] = turn;
            }
        }
        return pair;
    }

    /** Reads one turn from its START_OBJECT; null unless its role is one of {@code wanted} and its text a string. */
    private static Turn readTurn(JsonParser json, Set<String> wanted) throws IOException {
        String role = null;
        String text = null;
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String field = json.currentName();
            JsonToken value = json.nextToken();
            boolean isRole = field.equals("from") || field.equals("role");
            boolean isText = field.equals("value") || field.equals("content");
            if (isRole && value == JsonToken.VALUE_STRING) {
                role = json.getText().toLowerCase(Locale.ROOT);
            } else if (isText && value == JsonToken.VALUE_STRING && (role == null || wanted.contains(role))) {
                text = json.getText();
            } else {
                json.skipChildren();
            }
        }
        return role != null && wanted.contains(role) && text != null ? new Turn(text) : null;
    }

    private static String skip(JsonParser json, String problem) throws IOException {
        json.skipChildren();
        return problem;
    }

    private void keep(String prompt, int replyChars) {
        if (prompts.size() == replyTokens.length) {
            replyTokens = Arrays.copyOf(replyTokens, replyTokens.length * 2);
        }
        replyTokens[prompts.size()] = Math.max(1, (replyChars + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN);
        prompts.add(prompt);
        promptChars += prompt.length();
    }

    private record Turn(String text) {}

    /** Usable conversations. */
    public int size() {
        return prompts.size();
    }

    /** The first user turn of conversation {@code index}. */
    String prompt(int index) {
        return prompts.get(index);
    }

    /** The estimated length in tokens of the reply to {@link #prompt}: its characters / {@value #CHARS_PER_TOKEN}. */
    int replyTokens(int index) {
        return replyTokens[index];
    }

    /** Records that were skipped, by reason. */
    public Map<String, Integer> skipped() {
        return account.skipped();
    }

    /** What a person should know about the reading: records skipped and where it stopped early; empty when neither. */
    public List<String> warnings() {
        return account.warnings("dataset", size());
    }

    /** Equal when read from the same source with the same content, so configurations compare by what they send. */
    @Override
    public boolean equals(Object other) {
        return other instanceof ShareGptDataset that
                && source.equals(that.source)
                && prompts.equals(that.prompts)
                && Arrays.equals(replyTokens, 0, size(), that.replyTokens, 0, that.size())
                && account.text(size()).equals(that.account.text(that.size()));
    }

    @Override
    public int hashCode() {
        return source.hashCode() * 31 + prompts.hashCode();
    }

    @Override
    public String toString() {
        return "ShareGPT " + source + " (" + size() + " conversations)";
    }
}
