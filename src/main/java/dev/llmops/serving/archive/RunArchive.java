package dev.llmops.serving.archive;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Writes finished runs' records into the archive and reads them back. A record is the objects of one run under
 * {@code <prefix>/<namespace>/<run>/<uid>/}, its {@value #RUN} written last, so a record without it is incomplete and
 * not read. Everything read is bounded: the bucket may hold objects others wrote.
 */
public final class RunArchive implements AutoCloseable {

    /** The run as the cluster held it when it was archived: metadata, spec and status with its provenance. */
    public static final String RUN = "run.json";
    /** The run's per-request samples, the bytes its samples ConfigMap held. */
    public static final String SAMPLES = "samples.json.gz";
    /** Where a record's llm-d reports go, one object per stage. */
    public static final String LLMD = "llmd/";

    /** The most of a {@value #RUN} read: a run's status is far smaller, as etcd keeps objects under 1.5 MiB. */
    public static final long MAX_RUN_BYTES = 4L << 20;
    /** The most of {@value #SAMPLES} read: a samples ConfigMap holds at most 1 MiB. */
    public static final long MAX_SAMPLES_BYTES = 2L << 20;

    private final ArchiveLocation location;
    private final S3Client s3;

    /** One object of a record: its name under the record's prefix, its bytes and their media type. */
    public record Entry(String name, byte[] content, String contentType) {}

    /** A written record: its address and how many objects and bytes it holds. */
    public record Written(String url, int objects, long bytes) {}

    /** An archived run: the key prefix of its record and its {@value #RUN}. */
    public record Archived(String recordKeys, String url, byte[] run) {}

    /**
     * A client of the location, with the default AWS credentials (the environment, a web identity, an instance
     * profile); each call gives up after {@code timeout}, the SDK's own retries included.
     */
    public RunArchive(ArchiveLocation location, Duration timeout) {
        this.location = location;
        var builder = S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(timeout)
                        .socketTimeout(timeout))
                .credentialsProvider(DefaultCredentialsProvider.builder().build())
                .region(Region.of(location.region()))
                .forcePathStyle(location.pathStyle())
                // Stores other than AWS's take plain signed payloads, not the SDK's newer checksum trailers.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .overrideConfiguration(o -> o.apiCallTimeout(timeout));
        location.endpoint().ifPresent(builder::endpointOverride);
        this.s3 = builder.build();
    }

    public ArchiveLocation location() {
        return location;
    }

    /** Writes the record of one run, {@value #RUN} last; a record written before for the same uid is overwritten. */
    public Written write(String namespace, String run, String uid, List<Entry> entries) {
        String keys = location.recordKeys(namespace, run, uid);
        List<Entry> ordered = new ArrayList<>(entries);
        ordered.sort(Comparator.comparing(entry -> entry.name().equals(RUN)));
        long bytes = 0;
        for (Entry entry : ordered) {
            String key = keys + entry.name();
            try {
                s3.putObject(
                        put -> put.bucket(location.bucket()).key(key).contentType(entry.contentType()),
                        RequestBody.fromBytes(entry.content()));
            } catch (SdkException e) {
                throw ArchiveException.of("writing " + location.url(key), e);
            }
            bytes += entry.content().length;
        }
        return new Written(location.url(keys), ordered.size(), bytes);
    }

    /** The last complete record of the runs named {@code run} in {@code namespace}; empty when none was archived. */
    public Optional<Archived> latest(String namespace, String run) {
        return records(location.runKeys(namespace, run), Integer.MAX_VALUE).stream()
                .max(Comparator.comparing(S3Object::lastModified))
                .map(this::archived);
    }

    /**
     * The complete records under the location, or one namespace's, oldest first; more than {@code max} is refused
     * before any is read.
     */
    public List<Archived> runs(Optional<String> namespace, int max) {
        List<S3Object> records = records(location.keys(namespace), max);
        if (records.size() > max) {
            throw ArchiveException.invalid("more than " + max + " runs are archived under "
                    + location.url(location.keys(namespace)) + ": name a namespace, or a prefix that holds fewer");
        }
        return records.stream()
                .sorted(Comparator.comparing(S3Object::lastModified, Comparator.nullsFirst(Instant::compareTo)))
                .map(this::archived)
                .toList();
    }

    /** One object of a record, at most {@code max} bytes; empty when the record has no such object. */
    public Optional<byte[]> read(String recordKeys, String name, long max) {
        String key = recordKeys + name;
        try (ResponseInputStream<GetObjectResponse> in =
                s3.getObject(get -> get.bucket(location.bucket()).key(key))) {
            Long length = in.response().contentLength();
            if (length != null && length > max) {
                throw ArchiveException.invalid(
                        location.url(key) + " holds " + length + " bytes, more than the " + max + " it may hold");
            }
            byte[] content = readAtMost(in, max);
            if (content.length > max) {
                throw ArchiveException.invalid(
                        location.url(key) + " holds more than the " + max + " bytes it may hold");
            }
            return Optional.of(content);
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw ArchiveException.of("reading " + location.url(key), e);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + location.url(key), e);
        }
    }

    /** The {@value #RUN} objects under {@code prefix}, listing at most one beyond {@code max}. */
    private List<S3Object> records(String prefix, int max) {
        List<S3Object> records = new ArrayList<>();
        try {
            for (S3Object object : s3.listObjectsV2Paginator(
                            list -> list.bucket(location.bucket()).prefix(prefix))
                    .contents()) {
                if (object.key().endsWith("/" + RUN)) {
                    records.add(object);
                    if (records.size() > max) {
                        break;
                    }
                }
            }
        } catch (SdkException e) {
            throw ArchiveException.of("listing " + location.url(prefix), e);
        }
        return records;
    }

    private Archived archived(S3Object object) {
        String keys = object.key().substring(0, object.key().length() - RUN.length());
        byte[] run = read(keys, RUN, MAX_RUN_BYTES)
                .orElseThrow(() -> ArchiveException.invalid(location.url(object.key()) + " was deleted while read"));
        return new Archived(keys, location.url(keys), run);
    }

    private static byte[] readAtMost(InputStream in, long max) throws IOException {
        return in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
    }

    @Override
    public void close() {
        s3.close();
    }
}
