package dev.llmops.serving.runner.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** The shards' barrier over real HTTP on loopback: shard 0 listening, the others arriving. */
class RendezvousTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static CompletableFuture<Long> arrive(Rendezvous shard, String stage) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return shard.await(stage);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static Throwable failureOf(CompletableFuture<Long> arrival) throws InterruptedException {
        try {
            arrival.get(10, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("the arrival neither started nor failed", e);
        }
    }

    @Test
    void everyShardStartsTheStageAtTheInstantAgreedOnceAllHaveArrived() throws Exception {
        int port = freePort();
        Duration wait = Duration.ofSeconds(10);
        try (Rendezvous zero = Rendezvous.of(new Shard(0, 3), "127.0.0.1", port, wait);
                Rendezvous one = Rendezvous.of(new Shard(1, 3), "127.0.0.1", port, wait);
                Rendezvous two = Rendezvous.of(new Shard(2, 3), "127.0.0.1", port, wait)) {
            CompletableFuture<Long> first = arrive(zero, "c8");
            CompletableFuture<Long> second = arrive(one, "c8");
            TimeUnit.MILLISECONDS.sleep(300);
            assertThat(first).as("no shard starts before the last arrives").isNotDone();
            assertThat(second).isNotDone();

            long last = two.await("c8");
            long arrived = System.nanoTime();

            assertThat(first.get(5, TimeUnit.SECONDS)).isCloseTo(last, within(2_000_000L));
            assertThat(second.get(5, TimeUnit.SECONDS)).isCloseTo(last, within(2_000_000L));
            assertThat(last - arrived)
                    .as("the start lies ahead, by the margin for the answer to reach every shard")
                    .isBetween(0L, Rendezvous.START_MARGIN.toNanos());
        }
    }

    @Test
    void aRestartedShardFailsTheRunForEveryShardNamingIt() throws Exception {
        int port = freePort();
        Duration wait = Duration.ofSeconds(30);
        try (Rendezvous zero = Rendezvous.of(new Shard(0, 2), "127.0.0.1", port, wait);
                Rendezvous one = Rendezvous.of(new Shard(1, 2), "127.0.0.1", port, wait);
                Rendezvous oneAgain = Rendezvous.of(new Shard(1, 2), "127.0.0.1", port, wait)) {
            CompletableFuture<Long> started = arrive(zero, "single");
            one.await("single");
            started.get(5, TimeUnit.SECONDS);
            CompletableFuture<Long> waitingAtC8 = arrive(zero, "c8");
            TimeUnit.MILLISECONDS.sleep(200);

            String restarted = "shard 1 of 2 reached stage single a second time: the shard was restarted, and a"
                    + " restarted shard cannot rejoin a run under way";
            assertThatThrownBy(() -> oneAgain.await("single"))
                    .isInstanceOf(BarrierException.class)
                    .hasMessage(restarted);
            assertThat(failureOf(waitingAtC8))
                    .isInstanceOf(BarrierException.class)
                    .hasMessage(restarted);
            assertThatThrownBy(() -> one.await("c8")).hasMessage(restarted);
        }
    }

    /** A stage's figures of one shard: {@code completed} requests, each with a TTFT of {@code ttftMicros}. */
    private static StageFigures figures(int shard, int completed, long ttftMicros) {
        try {
            ObjectNode stage = (ObjectNode) JSON.readTree("""
                    {"name": "probe1-c4", "mode": "CLOSED_LOOP", "concurrency": 4, "rate": 0, "max_in_flight": 0,
                     "max_tokens": 0, "slo": true, "first_send_ns": 0, "last_send_ns": 0, "last_actual_send_ns": 0,
                     "last_end_ns": 1000000000, "client": [{"shard": %d, "client_lag_p99_ms": 0.1,
                     "client_lag_max_ms": 0.2, "client_cpu_seconds": 0.01, "processors": 2}]}
                    """.formatted(shard));
            stage.put("issued", completed).put("completed", completed).put("good", completed);
            ObjectNode ttft = stage.putObject("ttft");
            ttft.putArray("micros").add(ttftMicros);
            ttft.putArray("counts").add(completed);
            ttft.put("sum_ns", completed * ttftMicros * 1000.0)
                    .put("count", completed)
                    .put("max_ns", ttftMicros * 1000);
            return StageFigures.fromGzip(ShardJson.gzip(stage));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void everyShardGetsTheFiguresOfAllShardsAddedUpAtOneInstant() throws Exception {
        int port = freePort();
        Duration wait = Duration.ofSeconds(10);
        try (Rendezvous zero = Rendezvous.of(new Shard(0, 2), "127.0.0.1", port, wait);
                Rendezvous one = Rendezvous.of(new Shard(1, 2), "127.0.0.1", port, wait)) {
            CompletableFuture<Barrier.Exchange> first = CompletableFuture.supplyAsync(() -> {
                try {
                    return zero.exchange("probe1-c4", figures(0, 3, 100_000));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });

            Barrier.Exchange second = one.exchange("probe1-c4", figures(1, 1, 200_000));

            Barrier.Exchange atZero = first.get(5, TimeUnit.SECONDS);
            assertThat(atZero.clockNanos()).isEqualTo(second.clockNanos());
            for (Barrier.Exchange exchange : new Barrier.Exchange[] {atZero, second}) {
                var report = exchange.figures().report();
                assertThat(report.completed()).isEqualTo(4);
                assertThat(report.latency("ttft").max()).isEqualTo(200.0);
                assertThat(report.latency("ttft").median()).isCloseTo(100.0, within(0.1));
                assertThat(report.shards()).extracting(client -> client.shard()).containsExactly(0, 1);
            }
            assertThatThrownBy(() -> one.exchange("probe1-c4", figures(1, 1, 200_000)))
                    .isInstanceOf(BarrierException.class)
                    .hasMessageStartingWith("shard 1 of 2 handed in its figures of stage probe1-c4 a second time");
        }
    }

    @Test
    void aShardThatCannotReachShardZeroGivesUpAfterTheWaitSayingSo() throws Exception {
        int port = freePort();
        try (Rendezvous one = Rendezvous.of(new Shard(1, 2), "127.0.0.1", port, Duration.ofSeconds(1))) {
            assertThatThrownBy(() -> one.await("c8"))
                    .isInstanceOf(BarrierException.class)
                    .hasMessageStartingWith("shard 1/2 could not reach shard 0 at http://127.0.0.1:" + port
                            + "/ within 1 s before stage c8");
        }
    }

    @Test
    void shardZeroRefusesArrivalsOfNoShardOfTheRun() throws Exception {
        int port = freePort();
        try (Rendezvous zero = Rendezvous.of(new Shard(0, 2), "127.0.0.1", port, Duration.ofSeconds(5))) {
            HttpClient client = HttpClient.newHttpClient();
            for (String path : new String[] {"/stages/c8/shards/0", "/stages/c8/shards/2", "/stages/c8/shards/x"}) {
                HttpResponse<String> response = client.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).as(path).isEqualTo(400);
            }
            HttpResponse<String> get = client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/stages/c8/shards/1"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(get.statusCode()).isEqualTo(404);
        }
    }
}
