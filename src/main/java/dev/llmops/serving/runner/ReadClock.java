package dev.llmops.serving.runner;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.RejectedExecutionException;

/**
 * The head of a connection's pipeline: notes {@link System#nanoTime()} the moment a socket read returns bytes, before
 * TLS, HTTP decoding or parsing, so a chunk's time is when it arrived, not when the client got round to it.
 *
 * <p>Everything it receives is passed on as a task of the connection's event loop rather than at once. The loop reads
 * every socket an {@code epoll} wake-up reports before it runs those tasks, so when a thousand first chunks arrive
 * together each is timestamped at its read, none waits behind the parsing of the others. Events keep their order:
 * reads, read-completes, errors and the close all go through the same queue. When more than
 * {@value #MAX_QUEUED_BYTES} bytes of a connection wait for parsing it stops reading until they are parsed, so a
 * server faster than the parser cannot fill the client's memory.
 */
final class ReadClock extends ChannelInboundHandlerAdapter {

    static final int MAX_QUEUED_BYTES = 4 * 1024 * 1024;

    private long readNanos;
    private int queuedBytes;

    /** When the socket read returned the bytes now being handled downstream. */
    long readNanos() {
        return readNanos;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        long now = System.nanoTime();
        int bytes = message instanceof ByteBuf buffer ? buffer.readableBytes() : 0;
        queuedBytes += bytes;
        if (queuedBytes > MAX_QUEUED_BYTES) {
            ctx.channel().config().setAutoRead(false);
        }
        later(ctx, message, () -> {
            queuedBytes -= bytes;
            if (queuedBytes <= MAX_QUEUED_BYTES && !ctx.channel().config().isAutoRead()) {
                ctx.channel().config().setAutoRead(true);
            }
            readNanos = now;
            ctx.fireChannelRead(message);
        });
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        later(ctx, null, ctx::fireChannelReadComplete);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        later(ctx, null, ctx::fireChannelInactive);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        later(ctx, null, () -> ctx.fireExceptionCaught(cause));
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        later(ctx, event, () -> ctx.fireUserEventTriggered(event));
    }

    private static void later(ChannelHandlerContext ctx, Object message, Runnable task) {
        try {
            ctx.executor().execute(task);
        } catch (RejectedExecutionException shuttingDown) {
            ReferenceCountUtil.release(message);
        }
    }
}
