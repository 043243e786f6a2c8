package dev.llmops.serving.operator.modelserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Against an API server without LeaderWorkerSet that answers discovery slowly, as a loaded one does. */
class LeaderWorkerSetInstalledTest {

    private static final int THREADS = 16;

    @Test
    void reconcilerThreadsFindingTheCheckDueAtOnceAskTheApiServerOnce() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        HttpServer api = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        api.setExecutor(Executors.newCachedThreadPool());
        api.createContext("/", exchange -> {
            requests.incrementAndGet();
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        api.start();
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try (KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder()
                        .withMasterUrl("http://127.0.0.1:" + api.getAddress().getPort())
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build()) {
            assertThat(new LeaderWorkerSetInstalled().isInstalled(client)).isFalse();
            int oneCheck = requests.getAndSet(0);

            LeaderWorkerSetInstalled installed = new LeaderWorkerSetInstalled();
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> answers = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                answers.add(threads.submit(() -> {
                    start.await();
                    return installed.isInstalled(client);
                }));
            }
            start.countDown();
            for (Future<Boolean> answer : answers) {
                assertThat(answer.get(30, TimeUnit.SECONDS)).isFalse();
            }
            assertThat(installed.isInstalled(client)).isFalse();
            assertThat(requests.get())
                    .as("%d threads at once, then one more call within the recheck interval: one check", THREADS)
                    .isEqualTo(oneCheck);
        } finally {
            threads.shutdownNow();
            api.stop(0);
        }
    }

    @Test
    void theTestedReleaseNamedToUsersIsTheOneTheSuiteBuilds() throws IOException {
        assertThat(Files.readAllLines(Path.of("hack/controlplane/lws/version")))
                .contains("version=" + LeaderWorkerSet.TESTED_VERSION);
    }
}
