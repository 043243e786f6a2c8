package dev.llmops.serving.runner.command;

import dev.llmops.serving.common.options.FileOptions;
import dev.llmops.serving.runner.workload.Dataset;
import dev.llmops.serving.runner.workload.SessionShape;
import dev.llmops.serving.runner.workload.SharedPrefixShape;
import java.nio.file.Path;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A {@code --dataset} value: {@code prompts}, {@code random}, {@code random:IN,OUT}, {@code sharegpt:FILE},
 * {@code shared-prefix:GROUPS,PREFIX_TOKENS,QUESTION_TOKENS}, {@code trace:FILE} or
 * {@code sessions:TURNS,FIRST_TOKENS,TURN_TOKENS}, the parameters as typed (ranges are checked with the rest of the
 * configuration).
 *
 * @param inputLength words per random prompt given inline, else null
 * @param outputLength max_tokens given inline, else null
 * @param file the ShareGPT or trace file, checked to be readable
 * @param sharedPrefix the shape of the shared-prefix workload
 * @param sessions the conversations' shape, without the users' pace
 */
record DatasetOption(
        Dataset kind,
        Integer inputLength,
        Integer outputLength,
        Path file,
        SharedPrefixShape sharedPrefix,
        SessionShape sessions) {

    static final String GRAMMAR = "prompts, random, random:IN,OUT, sharegpt:FILE,"
            + " shared-prefix:GROUPS,PREFIX_TOKENS,QUESTION_TOKENS, trace:FILE or"
            + " sessions:TURNS,FIRST_TOKENS,TURN_TOKENS";

    DatasetOption(Dataset kind, Integer inputLength, Integer outputLength, Path file, SharedPrefixShape sharedPrefix) {
        this(kind, inputLength, outputLength, file, sharedPrefix, null);
    }

    /** Parses a value as typed; the exception's message says what was expected. */
    static final class Converter implements ITypeConverter<DatasetOption> {
        @Override
        public DatasetOption convert(String value) {
            int colon = value.indexOf(':');
            String kind = (colon < 0 ? value : value.substring(0, colon)).toLowerCase(Locale.ROOT);
            String parameters = colon < 0 ? null : value.substring(colon + 1);
            return switch (kind) {
                case "prompts" -> {
                    noParameters(value, parameters);
                    yield new DatasetOption(Dataset.PROMPTS, null, null, null, null);
                }
                case "random" -> {
                    if (parameters == null) {
                        yield new DatasetOption(Dataset.RANDOM, null, null, null, null);
                    }
                    int[] lengths = numbers(value, parameters, 2, "random:IN,OUT");
                    yield new DatasetOption(Dataset.RANDOM, lengths[0], lengths[1], null, null);
                }
                case "sharegpt", "trace" -> {
                    if (parameters == null || parameters.isEmpty()) {
                        throw new TypeConversionException("expected " + kind + ":FILE, got " + value);
                    }
                    yield new DatasetOption(
                            kind.equals("trace") ? Dataset.TRACE : Dataset.SHAREGPT,
                            null,
                            null,
                            new FileOptions.Readable().convert(parameters),
                            null);
                }
                case "shared-prefix" -> {
                    int[] shape = numbers(value, parameters, 3, "shared-prefix:GROUPS,PREFIX_TOKENS,QUESTION_TOKENS");
                    yield new DatasetOption(
                            Dataset.SHARED_PREFIX,
                            null,
                            null,
                            null,
                            new SharedPrefixShape(shape[0], shape[1], shape[2]));
                }
                case "sessions" -> {
                    int[] shape = numbers(value, parameters, 3, "sessions:TURNS,FIRST_TOKENS,TURN_TOKENS");
                    yield new DatasetOption(
                            Dataset.SESSIONS, null, null, null, null, SessionShape.of(shape[0], shape[1], shape[2]));
                }
                default -> throw new TypeConversionException("expected " + GRAMMAR + ", got " + value);
            };
        }

        private static void noParameters(String value, String parameters) {
            if (parameters != null) {
                throw new TypeConversionException("expected prompts (it takes no parameters), got " + value);
            }
        }

        private static int[] numbers(String value, String parameters, int count, String form) {
            String[] parts = parameters == null ? new String[0] : parameters.split(",", -1);
            if (parts.length != count) {
                throw new TypeConversionException("expected " + form + ", got " + value);
            }
            int[] numbers = new int[count];
            for (int i = 0; i < count; i++) {
                try {
                    numbers[i] = Integer.parseInt(parts[i].trim());
                } catch (NumberFormatException e) {
                    throw new TypeConversionException("expected " + form + " with whole numbers, got " + value);
                }
            }
            return numbers;
        }
    }
}
