package dev.llmops.serving.runner.shard;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.llmops.serving.runner.transport.OpenAiClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The shards' barrier: shard 0 listens on a port and every shard (itself included) arrives there before each stage;
 * once all have, shard 0 picks the stage's start, {@link #START_MARGIN} ahead, as an instant of the wall clock, and
 * every shard starts it then by its own clock (so the nodes' clock skew, milliseconds under NTP, is the shards'
 * misalignment). In a capacity search each shard also hands its figures of every stage in, and gets them added up
 * over all shards with the instant shard 0 added them, so all decide the next probe alike. A shard that has not come
 * within the wait of the first at a stage fails the run there, named; so does one that arrives at a stage the others
 * have already started, as a restarted shard does.
 */
public final class Rendezvous implements Barrier {

    /** The time between the agreement and the stage's start, for the answer to reach every shard. */
    static final Duration START_MARGIN = Duration.ofMillis(500);

    private static final int MAX_STAGE_CHARS = 128;
    private static final int MAX_ANSWER_BYTES = 4096;
    private static final String CLOCK_HEADER = "Clock-Nanos";
    private static final Duration RETRY = Duration.ofMillis(500);
    /** An IPv4 address or a bracketless IPv6 one: what shard 0 binds to rather than every interface. */
    private static final Pattern IP_LITERAL =
            Pattern.compile("^(\\d{1,3}(\\.\\d{1,3}){3}|[0-9a-fA-F:]*:[0-9a-fA-F:.]*)$");

    private final Shard shard;
    private final Duration wait;
    private final Coordinator coordinator;
    private final URI address;
    private final HttpClient client;

    private Rendezvous(Shard shard, Duration wait, Coordinator coordinator, URI address) {
        this.shard = shard;
        this.wait = wait;
        this.coordinator = coordinator;
        this.address = address;
        this.client = coordinator == null
                ? HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()
                : null;
    }

    /**
     * Shard {@code shard}'s side of the barrier at {@code host:port}: shard 0 listens on {@code port} (of
     * {@code host} when it is an IP address, else of every interface), the others connect to it, trying again until
     * {@code wait} has passed without it answering.
     */
    public static Rendezvous of(Shard shard, String host, int port, Duration wait) throws IOException {
        if (shard.index() == 0) {
            InetSocketAddress bind = IP_LITERAL.matcher(host).matches()
                    ? new InetSocketAddress(InetAddress.getByName(host), port)
                    : new InetSocketAddress(port);
            return new Rendezvous(shard, wait, new Coordinator(shard.count(), bind, wait), null);
        }
        return new Rendezvous(shard, wait, null, URI.create("http://" + host + ":" + port + "/"));
    }

    @Override
    public long await(String stage) throws InterruptedException {
        long startEpochNanos;
        if (coordinator != null) {
            startEpochNanos = coordinator.arrive(stage, 0);
        } else {
            Answer answer = post(stage, "shards", new byte[0]);
            try {
                startEpochNanos = Long.parseLong(new String(answer.body(), StandardCharsets.UTF_8).trim());
            } catch (NumberFormatException e) {
                throw new BarrierException("shard 0 answered stage " + stage + " with no start time");
            }
        }
        return System.nanoTime() + (startEpochNanos - epochNanos());
    }

    @Override
    public Exchange exchange(String stage, StageFigures figures) throws InterruptedException {
        Coordinator.Sum sum;
        if (coordinator != null) {
            sum = coordinator.handIn(stage, 0, figures.toGzip());
        } else {
            Answer answer = post(stage, "figures", figures.toGzip());
            try {
                sum = new Coordinator.Sum(answer.body(), Long.parseLong(answer.clock()));
            } catch (NumberFormatException e) {
                throw new BarrierException("shard 0 answered the figures of stage " + stage + " without its clock");
            }
        }
        try {
            return new Exchange(StageFigures.fromGzip(sum.figures()), sum.clockNanos());
        } catch (IllegalArgumentException e) {
            throw new BarrierException(
                    "the figures of stage " + stage + " from shard 0 are unreadable: " + e.getMessage());
        }
    }

    /** Shard 0's answer: its body, and the clock it was sent at (for figures). */
    private record Answer(byte[] body, String clock) {}

    /** POSTs {@code body} to {@code /stages/STAGE/KIND/INDEX} of shard 0, trying again while it cannot be reached. */
    private Answer post(String stage, String kind, byte[] body) throws InterruptedException {
        URI uri = address.resolve(
                "stages/" + URLEncoder.encode(stage, StandardCharsets.UTF_8) + "/" + kind + "/" + shard.index());
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            HttpRequest request = HttpRequest.newBuilder(uri)
                    .timeout(wait.plus(Duration.ofSeconds(30)))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build();
            try {
                HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
                byte[] answer;
                try (InputStream in = response.body()) {
                    answer = in.readNBytes(ShardJson.MAX_JSON_BYTES);
                }
                if (response.statusCode() == 200) {
                    return new Answer(
                            answer, response.headers().firstValue(CLOCK_HEADER).orElse(""));
                }
                String text =
                        new String(answer, 0, Math.min(answer.length, MAX_ANSWER_BYTES), StandardCharsets.UTF_8).trim();
                throw new BarrierException(text.isEmpty() ? "shard 0 answered " + response.statusCode() : text);
            } catch (ConnectException | HttpTimeoutException e) {
                if (System.nanoTime() - deadline >= 0) {
                    throw new BarrierException("shard " + shard + " could not reach shard 0 at " + address + " within "
                            + wait.toSeconds() + " s before stage " + stage + ": " + e);
                }
                TimeUnit.MILLISECONDS.sleep(RETRY.toMillis());
            } catch (IOException e) {
                if (System.nanoTime() - deadline >= 0) {
                    throw new BarrierException(
                            "shard " + shard + " lost shard 0 at " + address + " before stage " + stage + ": " + e);
                }
                TimeUnit.MILLISECONDS.sleep(RETRY.toMillis());
            }
        }
    }

    @Override
    public void close() {
        if (coordinator != null) {
            coordinator.close();
        }
    }

    static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** Shard 0's side: who has arrived at which stage, and the start each stage got. */
    private static final class Coordinator {
        private final int count;
        private final Duration wait;
        private final HttpServer server;
        private final ExecutorService handlers =
                Executors.newCachedThreadPool(OpenAiClient.daemonThreads("bench-rendezvous"));
        private final ScheduledExecutorService timeouts =
                Executors.newSingleThreadScheduledExecutor(OpenAiClient.daemonThreads("bench-rendezvous-timeout"));
        private final Map<String, Gathering> stages = new HashMap<>();
        private String current;
        /** Why the run's barrier broke, once it has. */
        private String broken;

        Coordinator(int count, InetSocketAddress bind, Duration wait) throws IOException {
            this.count = count;
            this.wait = wait;
            this.server = HttpServer.create(bind, 64);
            server.createContext("/stages/", this::handle);
            server.setExecutor(handlers);
            server.start();
        }

        /** One stage's arrivals; {@code start} completes with the start, or fails naming who is missing. */
        private record Gathering(Set<Integer> arrived, CompletableFuture<Long> start) {}

        /** The figures of a stage added up over every shard, gzipped, and the epoch nanoseconds they were. */
        record Sum(byte[] figures, long clockNanos) {}

        /** One stage's figures as the shards hand them in; {@code sum} completes once all have. */
        private record Handing(Map<Integer, byte[]> handed, CompletableFuture<Sum> sum) {}

        private final Map<String, Handing> figures = new HashMap<>();

        long arrive(String stage, int index) throws InterruptedException {
            CompletableFuture<Long> start;
            synchronized (this) {
                if (broken != null) {
                    throw new BarrierException(broken);
                }
                Gathering gathering = stages.get(stage);
                if (gathering == null) {
                    if (current != null && !stages.get(current).start().isDone()) {
                        throw breakRun("shard " + index + " of " + count + " reached stage " + stage
                                + " while the others gather at " + current + ": one of them was restarted, and a"
                                + " restarted shard cannot rejoin a run under way");
                    }
                    gathering = new Gathering(new TreeSet<>(), new CompletableFuture<>());
                    stages.put(stage, gathering);
                    current = stage;
                    Gathering timed = gathering;
                    timeouts.schedule(() -> timeOut(stage, timed), wait.toNanos(), TimeUnit.NANOSECONDS);
                }
                if (gathering.start().isDone() || !gathering.arrived().add(index)) {
                    throw breakRun("shard " + index + " of " + count + " reached stage " + stage + " a second time:"
                            + " the shard was restarted, and a restarted shard cannot rejoin a run under way");
                }
                if (gathering.arrived().size() == count) {
                    gathering.start().complete(epochNanos() + START_MARGIN.toNanos());
                }
                start = gathering.start();
            }
            try {
                return start.get();
            } catch (ExecutionException e) {
                throw (BarrierException) e.getCause();
            }
        }

        /** Takes shard {@code index}'s figures of {@code stage} and waits for every shard's, added up. */
        Sum handIn(String stage, int index, byte[] gzip) throws InterruptedException {
            CompletableFuture<Sum> sum;
            synchronized (this) {
                if (broken != null) {
                    throw new BarrierException(broken);
                }
                Handing handing = figures.computeIfAbsent(stage, name -> {
                    Handing created = new Handing(new HashMap<>(), new CompletableFuture<>());
                    timeouts.schedule(() -> handInTimedOut(name, created), wait.toNanos(), TimeUnit.NANOSECONDS);
                    return created;
                });
                if (handing.sum().isDone() || handing.handed().putIfAbsent(index, gzip) != null) {
                    throw breakRun("shard " + index + " of " + count + " handed in its figures of stage " + stage
                            + " a second time: the shard was restarted, and a restarted shard cannot rejoin a run"
                            + " under way");
                }
                if (handing.handed().size() == count) {
                    handing.sum().complete(add(stage, handing.handed()));
                }
                sum = handing.sum();
            }
            try {
                return sum.get();
            } catch (ExecutionException e) {
                throw (BarrierException) e.getCause();
            }
        }

        /** Every shard's figures of {@code stage} added up, or the run broken naming the shard whose are unreadable. */
        private Sum add(String stage, Map<Integer, byte[]> handed) {
            StageFigures total = null;
            for (int index = 0; index < count; index++) {
                StageFigures one;
                try {
                    one = StageFigures.fromGzip(handed.get(index));
                } catch (IllegalArgumentException e) {
                    throw breakRun("the figures of stage " + stage + " from shard " + index + " are unreadable: "
                            + e.getMessage());
                }
                if (total == null) {
                    total = one;
                } else if (!total.sameStageAs(one)) {
                    throw breakRun("shard " + index + " handed in figures of another stage than " + stage);
                } else {
                    total.add(one);
                }
            }
            return new Sum(total.toGzip(), epochNanos());
        }

        private synchronized void handInTimedOut(String stage, Handing handing) {
            if (!handing.sum().isDone()) {
                breakRun(missing(handing.handed().keySet()) + " did not hand in their figures of stage " + stage
                        + " within " + wait.toSeconds() + " s of the first shard");
            }
        }

        /** "shard 2 of 4" or "shards 1, 3 of 4": those not in {@code present}. */
        private String missing(Set<Integer> present) {
            String missing = IntStream.range(0, count)
                    .filter(index -> !present.contains(index))
                    .mapToObj(String::valueOf)
                    .collect(Collectors.joining(", "));
            return "shard" + (missing.contains(",") ? "s " : " ") + missing + " of " + count;
        }

        private synchronized void timeOut(String stage, Gathering gathering) {
            if (gathering.start().isDone()) {
                return;
            }
            breakRun(missing(gathering.arrived()) + " did not reach stage " + stage + " within " + wait.toSeconds()
                    + " s of the first shard");
        }

        /**
         * Ends the run's barrier for every shard: those waiting at the current stage and any arriving later get
         * {@code reason}, so the run fails at once and says why, instead of waiting out its shards.
         */
        private BarrierException breakRun(String reason) {
            broken = reason;
            if (current != null) {
                stages.get(current).start().completeExceptionally(new BarrierException(reason));
            }
            figures.values().forEach(handing -> handing.sum().completeExceptionally(new BarrierException(reason)));
            return new BarrierException(reason);
        }

        private void handle(HttpExchange exchange) throws IOException {
            try (exchange) {
                String[] path = exchange.getRequestURI().getPath().split("/");
                if (!"POST".equals(exchange.getRequestMethod())
                        || path.length != 5
                        || !("shards".equals(path[3]) || "figures".equals(path[3]))) {
                    answer(exchange, 404, "POST /stages/STAGE/shards/INDEX or /stages/STAGE/figures/INDEX");
                    return;
                }
                String stage = path[2];
                int index;
                try {
                    index = Integer.parseInt(path[4]);
                } catch (NumberFormatException e) {
                    index = -1;
                }
                if (index < 1 || index >= count || stage.isEmpty() || stage.length() > MAX_STAGE_CHARS) {
                    answer(exchange, 400, "no shard " + path[4] + " of " + count + " or no stage");
                    return;
                }
                try {
                    if ("shards".equals(path[3])) {
                        answer(exchange, 200, String.valueOf(arrive(stage, index)));
                    } else {
                        byte[] gzip;
                        try (InputStream in = exchange.getRequestBody()) {
                            gzip = in.readNBytes(ShardJson.MAX_JSON_BYTES + 1);
                        }
                        if (gzip.length > ShardJson.MAX_JSON_BYTES) {
                            answer(exchange, 413, "figures over " + ShardJson.MAX_JSON_BYTES + " bytes");
                            return;
                        }
                        Sum sum = handIn(stage, index, gzip);
                        exchange.getResponseHeaders().set(CLOCK_HEADER, String.valueOf(sum.clockNanos()));
                        exchange.getResponseHeaders().set("Content-Type", "application/gzip");
                        exchange.sendResponseHeaders(200, sum.figures().length);
                        try (OutputStream out = exchange.getResponseBody()) {
                            out.write(sum.figures());
                        }
                    }
                } catch (BarrierException e) {
                    answer(exchange, 409, e.getMessage());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    answer(exchange, 503, "shard 0 is stopping");
                }
            }
        }

        private static void answer(HttpExchange exchange, int status, String text) throws IOException {
            byte[] body = text.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }

        void close() {
            server.stop(0);
            handlers.shutdownNow();
            timeouts.shutdownNow();
        }
    }
}
