package dev.llmops.serving.archive;

import java.util.Locale;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Why the archive could not be written or read, sorted into what a user does about it, with the store's own words
 * shortened: the store is outside the operator and its error messages may be anything.
 */
public final class ArchiveException extends RuntimeException {

    /** What went wrong, as far as a user acts on it. */
    public enum Kind {
        /** Nothing answered, or the request timed out: the store may come back. */
        Unreachable,
        /** No credentials, or the store refused them or the request. */
        AccessDenied,
        /** The bucket does not exist. */
        NoSuchBucket,
        /** The record is larger than a reader takes, or not what the operator writes. */
        Invalid,
        /** Anything else the store answered. */
        Failed
    }

    private static final int MAX_MESSAGE = 300;
    private static final Set<String> REFUSED =
            Set.of("AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken");

    private final Kind kind;

    ArchiveException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    /** {@code action} ("writing s3://b/k") failed with {@code e}: the kind and a message that says what to check. */
    static ArchiveException of(String action, SdkException e) {
        String says = shortened(e.getMessage());
        if (e instanceof S3Exception refusal) {
            String code = refusal.awsErrorDetails() == null
                    ? null
                    : refusal.awsErrorDetails().errorCode();
            if (refusal.statusCode() == 403 || REFUSED.contains(code)) {
                return new ArchiveException(
                        Kind.AccessDenied,
                        action + ": the store refused the credentials or the request (" + code
                                + "): check the archive's credentials Secret and the bucket's policy. " + says,
                        e);
            }
            if ("NoSuchBucket".equals(code)) {
                return new ArchiveException(
                        Kind.NoSuchBucket, action + ": the bucket does not exist: create it, or fix the bucket.", e);
            }
            return new ArchiveException(Kind.Failed, action + ": " + says, e);
        }
        if (e instanceof SdkClientException && says.toLowerCase(Locale.ROOT).contains("credentials")) {
            return new ArchiveException(
                    Kind.AccessDenied,
                    action + ": no credentials: give the operator the archive's credentials Secret. " + says,
                    e);
        }
        return new ArchiveException(Kind.Unreachable, action + ": the store did not answer: " + says, e);
    }

    static ArchiveException invalid(String message) {
        return new ArchiveException(Kind.Invalid, message, null);
    }

    private static String shortened(String message) {
        String oneLine = message == null ? "" : message.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= MAX_MESSAGE ? oneLine : oneLine.substring(0, MAX_MESSAGE) + "…";
    }
}
