package org.viadsm.via.provider.tcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.engine.ConnectMessageFlyweight;
import org.viadsm.via.internal.HostPortAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.viadsm.via.provider.tcp.FrameLayout.HEADER_LENGTH;

/**
 * A hand-made peer on a blocking socket that speaks the tcp provider's wire protocol, or breaks it on purpose.
 */
final class RawPeer implements AutoCloseable
{
    static final int VI_ID = 3;
    static final int MAX_TRANSFER = 4096;

    private final SocketChannel socket;
    private final ByteBuffer out = ByteBuffer.allocateDirect(1 << 16);
    private final UnsafeBuffer outView = new UnsafeBuffer(out);
    private final ByteBuffer in = ByteBuffer.allocateDirect(1 << 16);
    private final UnsafeBuffer inView = new UnsafeBuffer(in);
    private final FrameFlyweight frame = new FrameFlyweight();
    int peerViId = -1;

    RawPeer(final String nicAddress)
    {
        final HostPortAddress address = TcpAddress.parse(nicAddress);
        try
        {
            socket = SocketChannel.open(new InetSocketAddress(address.socketAddress().getAddress(), address.port()));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** Starts a frame in the output buffer; fill in the fields, then {@link #send(int)} its length. */
    FrameFlyweight frame(final int type, final int payloadLength, final int destinationVi)
    {
        return frame.wrap(outView, 0).header(HEADER_LENGTH + payloadLength, type, VI_ID, destinationVi);
    }

    UnsafeBuffer payload()
    {
        return outView;
    }

    void send(final int length)
    {
        out.clear().limit(length);
        write(out);
    }

    /** Sends the staged bytes one at a time, so that the NIC sees the frame arrive in pieces. */
    void sendBytewise(final int length)
    {
        for (int i = 0; i < length; i++)
        {
            out.clear().position(i).limit(i + 1);
            write(out);
        }
    }

    void sendBytes(final byte[] bytes)
    {
        write(ByteBuffer.wrap(bytes));
    }

    /** Asks for a connection as a client, and takes the accept: returns once connected. */
    void connectAsClient(final long discriminator, final ReliabilityLevel level)
    {
        final String address = "tcp:127.0.0.1:1";
        frame(FrameLayout.TYPE_CLIENT_REQUEST, ConnectMessageFlyweight.length(address), 0).sequence(1);
        new ConnectMessageFlyweight().wrap(outView, HEADER_LENGTH)
            .nicId(42)
            .discriminator(discriminator)
            .sequence(1)
            .viId(VI_ID)
            .reliability(level.vipValue())
            .maxTransfer(MAX_TRANSFER)
            .flags(3)
            .address(address);
        send(HEADER_LENGTH + ConnectMessageFlyweight.length(address));
        final FrameFlyweight accept = read();
        assertEquals(FrameLayout.TYPE_ACCEPT, accept.type());
        peerViId = accept.sourceVi();
        frame(FrameLayout.TYPE_CONFIRM, 0, peerViId).sequence(1);
        send(HEADER_LENGTH);
    }

    /** Reads one whole frame other than a heartbeat; the flyweight is valid until the next read. */
    FrameFlyweight read()
    {
        while (true)
        {
            final FrameFlyweight next = readAny();
            if (FrameLayout.TYPE_HEARTBEAT != next.type())
            {
                return next;
            }
        }
    }

    /** Reads one whole frame, heartbeats included. */
    FrameFlyweight readAny()
    {
        in.clear().limit(HEADER_LENGTH);
        readFully(in);
        final int length = frame.wrap(inView, 0).frameLength();
        in.limit(length);
        readFully(in);
        return frame.wrap(inView, 0);
    }

    /** Whether the NIC closed the connection (reads until end of stream, discarding frames). */
    boolean isClosedByPeer()
    {
        try
        {
            in.clear();
            while (socket.read(in) >= 0)
            {
                in.clear();
            }
            return true;
        }
        catch (final IOException ex)
        {
            return true;
        }
    }

    /** Closes the socket without a word, as a dying process does. */
    void vanish()
    {
        close();
    }

    @Override
    public void close()
    {
        try
        {
            socket.close();
        }
        catch (final IOException ignore)
        {
            // test teardown
        }
    }

    private void write(final ByteBuffer buffer)
    {
        try
        {
            while (buffer.hasRemaining())
            {
                socket.write(buffer);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private void readFully(final ByteBuffer buffer)
    {
        try
        {
            while (buffer.hasRemaining())
            {
                if (socket.read(buffer) < 0)
                {
                    throw new IOException("end of stream");
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
