package dev.llmops.serving.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

/**
 * When an invalid fixture counts as rejected, one rule for the offline validator and the real API server alike: an
 * error at exactly the field its {@code # field:} header names, printed as {@code <field>: ...} and containing its
 * {@code # message:} text, and no error at any other field (errors about the whole object aside).
 */
public final class RejectionRule {

    /**
     * One field error as the API server prints it.
     *
     * @param field the path of the offending field, {@link FieldError#NO_FIELD} for the whole object
     * @param printed {@code <field>: <type>[: <value>]: <detail>}
     */
    public record Rejected(String field, String printed) {}

    /** The field of an error about the whole object. */
    public static final String NO_FIELD = FieldError.NO_FIELD;

    private RejectionRule() {}

    /** Fails unless {@code errors} reject the fixture at {@code field} with {@code message}, and nowhere else. */
    public static void assertRejectedAt(String fixture, String field, String message, List<Rejected> errors) {
        assertThat(errors)
                .as(fixture)
                .anySatisfy(error -> {
                    assertThat(error.field()).isEqualTo(field);
                    assertThat(error.printed()).startsWith(field + ": ").contains(message);
                })
                .allSatisfy(error -> assertThat(error.field())
                        .as(fixture + ": an error elsewhere than " + field + ": " + error.printed())
                        .isIn(field, NO_FIELD));
    }
}
