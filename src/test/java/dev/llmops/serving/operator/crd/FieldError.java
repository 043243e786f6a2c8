package dev.llmops.serving.operator.crd;

/**
 * One validation failure, printed the way the API server prints a field error:
 * {@code spec.parallelism.ep: Invalid value: "object": spec.parallelism.ep must divide spec.parallelism.tp}.
 *
 * @param field path of the offending field, e.g. {@code spec.sweep.concurrency[2]}
 * @param type the API server's error type, e.g. {@code Invalid value}, {@code Required value}, {@code Forbidden}
 * @param value the rejected value, or {@code null} when the error type shows none
 * @param detail what is wrong, in words
 */
public record FieldError(String field, String type, Object value, String detail) {

    static final String REQUIRED = "Required value";
    static final String INVALID = "Invalid value";
    static final String UNSUPPORTED = "Unsupported value";
    static final String FORBIDDEN = "Forbidden";
    static final String DUPLICATE = "Duplicate value";
    static final String TOO_LONG = "Too long";
    static final String TOO_MANY = "Too many";
    static final String UNKNOWN_FIELD = "Unknown field";
    /** The field of an error about the whole object, as the API server prints a nil path. */
    static final String NO_FIELD = "<nil>";

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(field).append(": ").append(type);
        if (value != null) {
            text.append(": ").append(value instanceof String s ? '"' + s + '"' : value);
        }
        if (detail != null && !detail.isEmpty()) {
            text.append(": ").append(detail);
        }
        return text.toString();
    }
}
