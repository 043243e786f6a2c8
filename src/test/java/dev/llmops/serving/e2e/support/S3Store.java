package dev.llmops.serving.e2e.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A real S3-compatible store for the archive's tests: S3Proxy (laid out by hack/controlplane/build.sh) as a process of
 * its own on loopback, checking AWS signatures against one access key, its buckets in a directory. It can go down and
 * come back on the same port with the same buckets, or come back expecting another secret key.
 */
public final class S3Store implements AutoCloseable {

    public static final String REGION = "us-east-1";
    public static final String ACCESS_KEY = "archiver";
    public static final String SECRET_KEY = "archive-secret-e2e";

    private static final String VERSION_PROPERTY = "<s3proxy.version>";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Path directory;
    private final int port;
    private ComponentProcess process;

    private S3Store(Path directory, int port) {
        this.directory = directory;
        this.port = port;
    }

    /** Started empty, with its buckets under {@code directory}, answering for {@link #SECRET_KEY}. */
    public static S3Store start(Path directory) {
        deleteBuckets(directory.resolve("buckets"));
        S3Store store = new S3Store(directory, FreePort.any());
        store.launch(SECRET_KEY);
        return store;
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** Down: nothing answers on its port. */
    public void stop() {
        process.close();
    }

    /** Up again on the same port and buckets, checking signatures against {@code secretKey}. */
    public void startAgain(String secretKey) {
        stop();
        launch(secretKey);
    }

    public void createBucket(String bucket) {
        try (S3Client s3 = client()) {
            s3.createBucket(create -> create.bucket(bucket));
        }
    }

    /** The keys under {@code prefix}. */
    public List<String> keys(String bucket, String prefix) {
        try (S3Client s3 = client()) {
            return s3.listObjectsV2Paginator(list -> list.bucket(bucket).prefix(prefix)).contents().stream()
                    .map(S3Object::key)
                    .toList();
        }
    }

    public byte[] get(String bucket, String key) {
        try (S3Client s3 = client()) {
            return s3.getObjectAsBytes(get -> get.bucket(bucket).key(key)).asByteArray();
        }
    }

    /** A client of the store with its credentials, path-style. */
    public S3Client client() {
        return S3Client.builder()
                .httpClient(UrlConnectionHttpClient.create())
                .endpointOverride(endpoint())
                .region(Region.of(REGION))
                .forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .build();
    }

    private void launch(String secretKey) {
        try {
            Path buckets = Files.createDirectories(directory.resolve("buckets"));
            Path properties = Files.writeString(
                    directory.resolve("s3proxy.properties"), """
                    s3proxy.endpoint=%s
                    s3proxy.authorization=aws-v2-or-v4
                    s3proxy.identity=%s
                    s3proxy.credential=%s
                    jclouds.provider=filesystem
                    jclouds.filesystem.basedir=%s
                    """.formatted(endpoint(), ACCESS_KEY, secretKey, buckets));
            Path logback = Files.writeString(directory.resolve("logback.xml"), """
                    <configuration>
                      <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
                        <encoder><pattern>%d %level %logger{20} %msg%n</pattern></encoder>
                      </appender>
                      <root level="WARN"><appender-ref ref="out"/></root>
                    </configuration>
                    """);
            process = ComponentProcess.start(
                    Path.of(System.getProperty("java.home"), "bin", "java"),
                    List.of(
                            "-Xmx256m",
                            "-Dlogback.configurationFile=" + logback,
                            "-cp",
                            libraries() + "/*",
                            "org.gaul.s3proxy.Main",
                            "--properties",
                            properties.toString()),
                    directory);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start S3Proxy in " + directory, e);
        }
        await("S3Proxy answering on port " + port)
                .atMost(START_TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    process.assertAlive();
                    return answers();
                });
    }

    private boolean answers() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Where hack/controlplane/build.sh laid S3Proxy's jars out, for the version its pom pins. */
    private static Path libraries() throws IOException {
        Path pom = ProjectPaths.resolve("hack/controlplane/s3proxy/pom.xml");
        String text = Files.readString(pom);
        int start = text.indexOf(VERSION_PROPERTY);
        String version = text.substring(start + VERSION_PROPERTY.length(), text.indexOf('<', start + 1));
        Path lib = ControlPlaneBinaries.layoutRoot()
                .resolve("s3proxy")
                .resolve(version)
                .resolve("lib");
        if (!Files.isDirectory(lib)) {
            throw new IllegalStateException("S3Proxy " + version + " is missing in " + lib + ": run "
                    + ControlPlaneBinaries.BUILD_SCRIPT + " first");
        }
        return lib;
    }

    /** The buckets an earlier start left. */
    private static void deleteBuckets(Path buckets) {
        if (!Files.exists(buckets)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(buckets)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot empty " + buckets, e);
        }
    }

    @Override
    public void close() {
        stop();
    }
}
