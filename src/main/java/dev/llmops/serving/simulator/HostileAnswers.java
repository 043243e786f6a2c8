package dev.llmops.serving.simulator;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The answers of the hostile {@link Fault}s: bodies that never end, each written by a thread of its own until the
 * client hangs up or the simulator closes, so a client's caps and deadlines can be tested against a server that
 * attacks them.
 */
final class HostileAnswers {

    /** The pause between two bytes of {@link Fault#SLOW_DRIP}. */
    static final Duration DRIP_INTERVAL = Duration.ofMillis(100);

    private static final int BLOCK_BYTES = 64 * 1024;
    private static final byte[] LINE_BLOCK = filled('x');
    private static final byte[] EVENT_LINES = repeated("data: {\"choices\":[]}\n");
    private static final byte[] TOKEN_EVENTS =
            repeated("data: {\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}\n\n");
    private static final byte[] JSON_BLOCK = repeated("{\"id\":\"x\",\"object\":\"model\"},");
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final Set<HttpExchange> open;
    private final BooleanSupplier running;

    /**
     * @param open where each answer's exchange is kept while it is written, so closing the simulator can close it
     * @param running false once the simulator closes
     */
    HostileAnswers(Set<HttpExchange> open, BooleanSupplier running) {
        this.open = open;
        this.running = running;
    }

    /** Whether {@code fault} takes over the answer to {@code path}; {@code generation}: a completion endpoint. */
    static boolean attacks(Fault fault, String path, boolean generation) {
        return switch (fault) {
            case ENDLESS_LINE, ENDLESS_EVENT -> generation;
            case HUGE_BODY -> generation || isProbedGet(path);
            case SLOW_DRIP -> !"/metrics".equals(path) && !"/simulator/ground_truth".equals(path);
            default -> false;
        };
    }

    /** Starts the endless answer of {@code fault}; {@code stream} says whether the request asked for a stream. */
    void answer(HttpExchange exchange, Fault fault, boolean stream) {
        boolean eventStream = stream || fault == Fault.ENDLESS_LINE || fault == Fault.ENDLESS_EVENT;
        String contentType = eventStream ? "text/event-stream" : "application/json";
        byte[] first;
        byte[] block;
        switch (fault) {
            case ENDLESS_LINE -> {
                first = "data: ".getBytes(StandardCharsets.US_ASCII);
                block = LINE_BLOCK;
            }
            case ENDLESS_EVENT -> {
                first = new byte[0];
                block = EVENT_LINES;
            }
            case HUGE_BODY -> {
                first = eventStream
                        ? new byte[0]
                        : "{\"object\":\"list\",\"data\":[".getBytes(StandardCharsets.US_ASCII);
                block = eventStream ? TOKEN_EVENTS : JSON_BLOCK;
            }
            default -> {
                first = new byte[0];
                block = new byte[] {' '};
            }
        }
        long pauseMillis = fault == Fault.SLOW_DRIP ? DRIP_INTERVAL.toMillis() : 0;
        open.add(exchange);
        Thread writer = new Thread(
                () -> write(exchange, contentType, first, block, pauseMillis),
                "sglang-simulator-hostile-" + THREADS.incrementAndGet());
        writer.setDaemon(true);
        writer.start();
    }

    private void write(HttpExchange exchange, String contentType, byte[] first, byte[] block, long pauseMillis) {
        try (exchange) {
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(200, 0);
            OutputStream body = exchange.getResponseBody();
            body.write(first);
            while (running.getAsBoolean()) {
                body.write(block);
                body.flush();
                if (pauseMillis > 0) {
                    Thread.sleep(pauseMillis);
                }
            }
        } catch (IOException | RuntimeException e) {
            // the client hung up: what a hostile answer waits for
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            open.remove(exchange);
        }
    }

    private static boolean isProbedGet(String path) {
        return switch (path) {
            case "/health", "/health_generate", "/v1/models", "/get_server_info" -> true;
            default -> false;
        };
    }

    private static byte[] filled(char value) {
        byte[] block = new byte[BLOCK_BYTES];
        Arrays.fill(block, (byte) value);
        return block;
    }

    private static byte[] repeated(String text) {
        byte[] unit = text.getBytes(StandardCharsets.US_ASCII);
        byte[] block = new byte[BLOCK_BYTES / unit.length * unit.length];
        for (int i = 0; i < block.length; i += unit.length) {
            System.arraycopy(unit, 0, block, i, unit.length);
        }
        return block;
    }
}
