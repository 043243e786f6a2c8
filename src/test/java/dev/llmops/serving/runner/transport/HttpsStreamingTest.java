package dev.llmops.serving.runner.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streamed completions over HTTPS through the Netty transport, against a loopback HTTPS server whose certificates
 * {@code keytool} makes: a trusted certificate for the host streams every token, an untrusted one or one for another
 * host fails the handshake with a reason naming it, as the JVM's trust store and host-name check decide.
 */
class HttpsStreamingTest {

    private static final String PASSWORD = "changeit";
    private static final String TRUST_STORE = "javax.net.ssl.trustStore";
    private static final String TRUST_STORE_PASSWORD = "javax.net.ssl.trustStorePassword";
    private static final String TRUST_STORE_TYPE = "javax.net.ssl.trustStoreType";

    @TempDir
    static Path certificates;

    private static HttpsServer forLocalhost;
    private static HttpsServer forAnotherHost;
    private static Path trustStore;

    @BeforeAll
    static void startServers() throws Exception {
        Path localhost = keyPair("localhost", "SAN=dns:localhost,ip:127.0.0.1");
        Path another = keyPair("another", "SAN=dns:models.example.com");
        trustStore = certificates.resolve("trust.p12");
        trust(localhost, "localhost");
        trust(another, "another");
        forLocalhost = serve(localhost);
        forAnotherHost = serve(another);
    }

    @AfterAll
    static void stopServers() {
        forLocalhost.stop(0);
        forAnotherHost.stop(0);
    }

    @Test
    void aTrustedServerStreamsEveryToken() {
        RequestResult result = completeTrusting(trustStore, forLocalhost);

        assertThat(result.succeeded()).as(result.errorMessage()).isTrue();
        assertThat(result.tokenChunkNanos()).hasSize(3);
        assertThat(result.ttft()).isPresent();
    }

    @Test
    void anUntrustedCertificateFailsTheHandshake() {
        RequestResult result = completeTrusting(null, forLocalhost);

        assertThat(result.succeeded()).isFalse();
        assertThat(result.failureClass()).isEqualTo(FailureClass.CONNECT);
        assertThat(result.errorMessage()).contains("TLS handshake failed").contains("certification path");
    }

    @Test
    void aCertificateForAnotherHostFailsTheHandshake() {
        RequestResult result = completeTrusting(trustStore, forAnotherHost);

        assertThat(result.succeeded()).isFalse();
        assertThat(result.failureClass()).isEqualTo(FailureClass.CONNECT);
        assertThat(result.errorMessage()).contains("TLS handshake failed").contains("localhost");
    }

    /** One streamed completion to https://localhost, the JVM's trust store set to {@code store} (null: the JDK's). */
    private static RequestResult completeTrusting(Path store, HttpsServer server) {
        String[] saved = {
            System.getProperty(TRUST_STORE),
            System.getProperty(TRUST_STORE_PASSWORD),
            System.getProperty(TRUST_STORE_TYPE)
        };
        if (store != null) {
            System.setProperty(TRUST_STORE, store.toString());
            System.setProperty(TRUST_STORE_PASSWORD, PASSWORD);
            System.setProperty(TRUST_STORE_TYPE, "PKCS12");
        }
        try (OpenAiClient client = OpenAiClient.create(1, Duration.ofSeconds(5))) {
            CompletionRequest request = CompletionRequest.builder(
                            "https://localhost:" + server.getAddress().getPort(), "m")
                    .timeout(Duration.ofSeconds(10))
                    .build();
            return client.complete(request).orTimeout(20, TimeUnit.SECONDS).join();
        } finally {
            restore(TRUST_STORE, saved[0]);
            restore(TRUST_STORE_PASSWORD, saved[1]);
            restore(TRUST_STORE_TYPE, saved[2]);
        }
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }

    private static Path keyPair(String alias, String subjectAlternativeNames) throws Exception {
        Path store = certificates.resolve(alias + ".p12");
        keytool(
                "-genkeypair",
                "-alias",
                alias,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-validity",
                "2",
                "-dname",
                "CN=" + alias,
                "-ext",
                subjectAlternativeNames,
                "-keystore",
                store.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD);
        return store;
    }

    private static void trust(Path keyStore, String alias) throws Exception {
        Path certificate = certificates.resolve(alias + ".crt");
        keytool(
                "-exportcert",
                "-alias",
                alias,
                "-keystore",
                keyStore.toString(),
                "-storepass",
                PASSWORD,
                "-rfc",
                "-file",
                certificate.toString());
        keytool(
                "-importcert",
                "-noprompt",
                "-alias",
                alias,
                "-file",
                certificate.toString(),
                "-keystore",
                trustStore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD);
    }

    private static void keytool(String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(output).isZero();
    }

    /** An HTTPS server on loopback that answers every request with a stream of three tokens. */
    private static HttpsServer serve(Path keyStore) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, PASSWORD.toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(keyManagers.getKeyManagers(), null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 3; i++) {
                    event(out, "{\"id\":\"r\",\"choices\":[{\"delta\":{\"content\":\"t" + i + "\"}}]}");
                }
                event(out, "{\"id\":\"r\",\"choices\":[{\"delta\":{},\"finish_reason\":\"length\"}]}");
                event(out, "[DONE]");
            }
        });
        server.start();
        return server;
    }

    private static void event(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
