package dev.llmops.serving.runner.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;

/**
 * The head of a connection's pipeline: notes {@link System#nanoTime()} the moment a socket read returns bytes, before
 * TLS, HTTP decoding or parsing, so a chunk's time is when it arrived, not when the client got round to it.
 *
 * <p>What it receives waits in a queue that a task of the connection's event loop drains. The loop reads every socket
 * an {@code epoll} wake-up reports before it runs those tasks, so when a thousand first chunks arrive together each is
 * timestamped at its read, none waits behind the parsing of the others. Events keep their order: reads,
 * read-completes and errors share the queue, and the close drains it before it is passed on. When more than
 * {@value #MAX_QUEUED_BYTES} bytes of a connection wait, it stops reading until they are parsed, so a server faster
 * than the parser cannot fill the client's memory.
 */
final class ReadClock extends ChannelInboundHandlerAdapter {

    static final int MAX_QUEUED_BYTES = 4 * 1024 * 1024;

    /** One event waiting to be passed on; {@code message} is null for a read-complete. */
    private record Waiting(Object message, long readNanos, Throwable failure) {}

    private static final Waiting READ_COMPLETE = new Waiting(null, 0, null);

    private final ArrayDeque<Waiting> queue = new ArrayDeque<>();
    private boolean drainScheduled;
    private long readNanos;
    private int queuedBytes;

    /** When the socket read returned the bytes now being handled downstream. */
    long readNanos() {
        return readNanos;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        long now = System.nanoTime();
        queuedBytes += message instanceof ByteBuf buffer ? buffer.readableBytes() : 0;
        if (queuedBytes > MAX_QUEUED_BYTES) {
            ctx.channel().config().setAutoRead(false);
        }
        enqueue(ctx, new Waiting(message, now, null));
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        enqueue(ctx, READ_COMPLETE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        enqueue(ctx, new Waiting(null, 0, cause));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        drain(ctx);
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        for (Waiting waiting = queue.poll(); waiting != null; waiting = queue.poll()) {
            ReferenceCountUtil.release(waiting.message);
        }
    }

    private void enqueue(ChannelHandlerContext ctx, Waiting waiting) {
        queue.add(waiting);
        if (drainScheduled) {
            return;
        }
        drainScheduled = true;
        try {
            ctx.executor().execute(() -> drain(ctx));
        } catch (RejectedExecutionException shuttingDown) {
            handlerRemoved(ctx);
        }
    }

    private void drain(ChannelHandlerContext ctx) {
        drainScheduled = false;
        for (Waiting waiting = queue.poll(); waiting != null; waiting = queue.poll()) {
            if (waiting.failure != null) {
                ctx.fireExceptionCaught(waiting.failure);
            } else if (waiting == READ_COMPLETE) {
                ctx.fireChannelReadComplete();
            } else {
                if (waiting.message instanceof ByteBuf buffer) {
                    queuedBytes -= buffer.readableBytes();
                }
                readNanos = waiting.readNanos;
                ctx.fireChannelRead(waiting.message);
            }
        }
        if (queuedBytes <= MAX_QUEUED_BYTES && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
    }
}
