package dev.llmops.serving.archive;

import java.net.URI;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where runs are archived: a bucket of an S3-compatible store (AWS when no endpoint is given), a key prefix, the
 * region the requests are signed for, and whether the bucket is addressed in the path (MinIO, Ceph, SeaweedFS) rather
 * than in the host name. A run's record lives under {@code <prefix>/<namespace>/<run>/<uid>/}.
 */
public record ArchiveLocation(Optional<URI> endpoint, String bucket, String prefix, String region, boolean pathStyle) {

    private static final Pattern S3_URL = Pattern.compile("s3://([^/]+)/?(.*)");

    public ArchiveLocation {
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException("the archive needs a bucket");
        }
        prefix = prefix == null ? "" : prefix.replaceAll("^/+|/+$", "");
    }

    /** The location an {@code s3://bucket/prefix} URL names, with the endpoint, region and addressing given. */
    public static ArchiveLocation of(String s3Url, Optional<URI> endpoint, String region, boolean pathStyle) {
        var matcher = S3_URL.matcher(s3Url);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not an s3://BUCKET[/PREFIX] URL: " + s3Url);
        }
        return new ArchiveLocation(endpoint, matcher.group(1), matcher.group(2), region, pathStyle);
    }

    /** The key prefix of every record of the runs named {@code run} in {@code namespace}, ending in a slash. */
    public String runKeys(String namespace, String run) {
        return under(namespace + "/" + run + "/");
    }

    /** The key prefix of one run's record, ending in a slash. */
    public String recordKeys(String namespace, String run, String uid) {
        return runKeys(namespace, run) + uid + "/";
    }

    /** The key prefix of every record, or of one namespace's when {@code namespace} is given, ending in a slash. */
    public String keys(Optional<String> namespace) {
        return under(namespace.map(name -> name + "/").orElse(""));
    }

    /** {@code s3://bucket/key}, the object's address as users and tools write it. */
    public String url(String key) {
        return "s3://" + bucket + "/" + key;
    }

    /** The key an {@link #url} of this bucket names; empty for another bucket's. */
    public Optional<String> keyOf(String url) {
        String ours = "s3://" + bucket + "/";
        return url != null && url.startsWith(ours) ? Optional.of(url.substring(ours.length())) : Optional.empty();
    }

    private String under(String path) {
        return prefix.isEmpty() ? path : prefix + "/" + path;
    }
}
