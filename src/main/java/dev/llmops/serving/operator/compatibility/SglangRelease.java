package dev.llmops.serving.operator.compatibility;

import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An SGLang release number, read from a version string or from the tag of an official image. */
public record SglangRelease(int major, int minor, int patch) implements Comparable<SglangRelease> {

    private static final String OFFICIAL_REPOSITORY = "lmsysorg/sglang";
    private static final Comparator<SglangRelease> ORDER = Comparator.comparingInt(SglangRelease::major)
            .thenComparingInt(SglangRelease::minor)
            .thenComparingInt(SglangRelease::patch);
    private static final Pattern VERSION = Pattern.compile("^v?(\\d{1,4})\\.(\\d{1,4})\\.(\\d{1,4})");

    /** Parses {@code 0.5.18} (or {@code v0.5.18}); throws on anything else. */
    public static SglangRelease parse(String version) {
        Matcher matcher = VERSION.matcher(version == null ? "" : version);
        if (!matcher.find() || matcher.end() != version.length()) {
            throw new IllegalArgumentException("not an SGLang release number (MAJOR.MINOR.PATCH): " + version);
        }
        return of(matcher);
    }

    /**
     * The release of an official {@code lmsysorg/sglang:vX.Y.Z[-suffix]} image; empty for any other image and for
     * moving tags such as {@code latest}, whose release cannot be known from the reference.
     */
    public static Optional<SglangRelease> ofImage(String image) {
        String reference = image.contains("@") ? image.substring(0, image.indexOf('@')) : image;
        int lastSlash = reference.lastIndexOf('/');
        int tagStart = reference.lastIndexOf(':');
        if (tagStart <= lastSlash) {
            return Optional.empty();
        }
        String repository = reference.substring(0, tagStart);
        boolean official =
                repository.equals(OFFICIAL_REPOSITORY) || repository.equals("docker.io/" + OFFICIAL_REPOSITORY);
        Matcher matcher = VERSION.matcher(reference.substring(tagStart + 1));
        return official && matcher.find() ? Optional.of(of(matcher)) : Optional.empty();
    }

    private static SglangRelease of(Matcher matcher) {
        return new SglangRelease(
                Integer.parseInt(matcher.group(1)),
                Integer.parseInt(matcher.group(2)),
                Integer.parseInt(matcher.group(3)));
    }

    @Override
    public int compareTo(SglangRelease other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
