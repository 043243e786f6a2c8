package dev.llmops.serving.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads what a user hands a command, a file or standard input, only up to a bound: a file of another kind than the
 * command expects, or a hostile one, costs a one-line error instead of the memory it would take.
 */
final class BoundedInput {

    /** The bound of a document the report reads: a List of an experiment's 16 runs stays far below it. */
    static final int MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;

    private BoundedInput() {}

    /**
     * At most {@code maxBytes} of the file; an {@link IOException}'s message says what is wrong without naming the
     * file, which the caller names.
     */
    static byte[] bytes(Path file, int maxBytes) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return bounded(in, maxBytes);
        } catch (NoSuchFileException e) {
            throw new IOException("no such file", e);
        } catch (AccessDeniedException e) {
            throw new IOException("permission denied", e);
        }
    }

    /** The file as UTF-8 text of at most {@code maxBytes}. */
    static String text(Path file, int maxBytes) throws IOException {
        return utf8(bytes(file, maxBytes));
    }

    /** Standard input as UTF-8 text of at most {@code maxBytes}. */
    static String standardInput(int maxBytes) throws IOException {
        return utf8(bounded(System.in, maxBytes));
    }

    private static byte[] bounded(InputStream in, int maxBytes) throws IOException {
        byte[] read = in.readNBytes(maxBytes + 1);
        if (read.length > maxBytes) {
            throw new IOException("more than " + maxBytes + " bytes, more than this command reads");
        }
        return read;
    }

    private static String utf8(byte[] bytes) throws IOException {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IOException("not UTF-8 text", e);
        }
    }
}
