package dev.llmops.serving.common.options;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Converters for the options that name files: a path that cannot be read or written fails while the command line is
 * parsed, with the option, the path and what is wrong, before anything runs.
 */
public final class FileOptions {

    private FileOptions() {}

    /** A file to read: it exists, is not a directory and is readable. */
    public static final class Readable implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            Path file = Path.of(value);
            if (!Files.exists(file)) {
                throw new TypeConversionException(value + " does not exist");
            }
            if (Files.isDirectory(file)) {
                throw new TypeConversionException(value + " is a directory, not a file");
            }
            if (!Files.isReadable(file)) {
                throw new TypeConversionException(value + " is not readable (permission denied)");
            }
            return file;
        }
    }

    /** A file to write: an existing writable file, or a new one in an existing writable directory. */
    public static final class Writable implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            return writable(value);
        }
    }

    /** Like {@link Writable}, or {@code -} for standard output. */
    public static final class WritableOrStdout implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!value.equals("-")) {
                writable(value);
            }
            return value;
        }
    }

    private static Path writable(String value) {
        Path file = Path.of(value);
        if (Files.isDirectory(file)) {
            throw new TypeConversionException(value + " is a directory, not a file");
        }
        if (Files.exists(file)) {
            if (!Files.isWritable(file)) {
                throw new TypeConversionException(value + " is not writable (permission denied)");
            }
            return file;
        }
        Path directory = file.toAbsolutePath().getParent();
        if (directory == null || !Files.isDirectory(directory)) {
            throw new TypeConversionException(value + " cannot be created: directory " + directory + " does not exist");
        }
        if (!Files.isWritable(directory)) {
            throw new TypeConversionException(
                    value + " cannot be created: directory " + directory + " is not writable");
        }
        return file;
    }
}
