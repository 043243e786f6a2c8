package dev.llmops.serving.runner.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The end of a connection's pipeline: hands the decoded response of the request in flight to its
 * {@link ResponseReader}, with the time of the socket read that brought each piece, and puts the connection back in
 * the pool when the response ended cleanly. Runs on the connection's event loop only.
 */
final class ExchangeHandler extends ChannelInboundHandlerAdapter {

    private final ReadClock clock;
    private final int headerBytes;
    private ResponseReader reader;
    private Runnable reuse;
    private boolean keepAlive;

    /** {@code headerBytes} is the cap of the connection's decoder, named when a response goes past it. */
    ExchangeHandler(ReadClock clock, int headerBytes) {
        this.clock = clock;
        this.headerBytes = headerBytes;
    }

    /** The connection now carries this reader's request; {@code reuse} returns it to the pool after the answer. */
    void begin(ResponseReader next, Runnable reuseConnection) {
        reader = next;
        reuse = reuseConnection;
        keepAlive = false;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        try {
            if (reader == null) {
                ctx.close();
            } else if (message instanceof HttpObject object
                    && object.decoderResult().isFailure()) {
                unreadable(ctx, object.decoderResult());
            } else {
                read(ctx, message);
            }
        } finally {
            ReferenceCountUtil.release(message);
        }
    }

    private void read(ChannelHandlerContext ctx, Object message) {
        if (message instanceof HttpResponse response) {
            if (response.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
                return;
            }
            reader.hold();
            reader.onHeaders(response.status().code(), response.headers().get(HttpHeaderNames.CONTENT_TYPE));
            keepAlive = HttpUtil.isKeepAlive(response);
        }
        if (message instanceof HttpContent content) {
            ByteBuf bytes = content.content();
            if (bytes.isReadable()) {
                for (ByteBuffer buffer : bytes.nioBuffers()) {
                    reader.onBody(buffer, clock.readNanos());
                }
            }
            if (content instanceof LastHttpContent) {
                reader.onEnd(clock.readNanos());
                ResponseReader ended = reader;
                reader = null;
                if (keepAlive && !ended.failed()) {
                    reuse.run();
                } else {
                    ctx.close();
                }
                ended.release();
            }
        }
    }

    private void unreadable(ChannelHandlerContext ctx, DecoderResult result) {
        Throwable cause = result.cause();
        if (cause instanceof PrematureChannelClosureException) {
            broken(cause);
        } else if (cause instanceof TooLongFrameException) {
            reader.onUnreadable(
                    FailureClass.TOO_LARGE, "response headers exceed " + ResponseTooLarge.size(headerBytes));
        } else {
            reader.onUnreadable(FailureClass.BAD_RESPONSE, "not an HTTP/1.1 response: " + FailureClass.describe(cause));
        }
        end(ctx);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (reader != null) {
            reader.release();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (reader != null) {
            broken(new IOException("the server closed the connection"));
            end(ctx);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (reader != null) {
            broken(cause);
            end(ctx);
        } else {
            ctx.close();
        }
    }

    private void broken(Throwable cause) {
        if (reader.answered()) {
            reader.onBroken(cause, System.nanoTime());
        } else {
            reader.failBeforeResponse(cause);
        }
    }

    private void end(ChannelHandlerContext ctx) {
        ResponseReader ended = reader;
        reader = null;
        ctx.close();
        ended.release();
    }
}
