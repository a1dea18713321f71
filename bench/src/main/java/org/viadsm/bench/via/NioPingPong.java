package org.viadsm.bench.via;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The raw baseline of a TCP ping-pong: a plain NIO {@link SocketChannel} with TCP_NODELAY, each message written
 * and read whole. In blocking mode a read sleeps in the kernel until data comes; in non-blocking mode it polls and
 * waits between polls as the VIA's waits do ({@link SpinParkIdle}).
 */
final class NioPingPong extends PingPong
{
    private final SocketChannel channel;
    private final ByteBuffer out;
    private final ByteBuffer in;
    private final SpinParkIdle idle = new SpinParkIdle("nio ping-pong");

    /**
     * A ping-pong side over a connected channel.
     *
     * @param channel  the channel.
     * @param length   bytes per message.
     * @param blocking blocking reads, else polled reads.
     */
    NioPingPong(final SocketChannel channel, final int length, final boolean blocking)
    {
        this.channel = channel;
        this.out = ByteBuffer.allocateDirect(length);
        this.in = ByteBuffer.allocateDirect(length);
        try
        {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.configureBlocking(blocking);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot configure " + channel, ex);
        }
    }

    @Override
    void send(final boolean last)
    {
        out.clear();
        out.putLong(0, last ? 1 : 0);
        try
        {
            while (out.hasRemaining())
            {
                if (0 == channel.write(out))
                {
                    idle.idle();
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("write failed on " + channel, ex);
        }
        idle.reset();
    }

    @Override
    boolean receive()
    {
        in.clear();
        try
        {
            while (in.hasRemaining())
            {
                final int read = channel.read(in);
                if (read < 0)
                {
                    throw new IllegalStateException("the other side closed " + channel);
                }
                if (0 == read)
                {
                    idle.idle();
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("read failed on " + channel, ex);
        }
        idle.reset();
        return 0 != in.getLong(0);
    }
}
