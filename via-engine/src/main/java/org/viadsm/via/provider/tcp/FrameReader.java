package org.viadsm.via.provider.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import org.agrona.concurrent.UnsafeBuffer;

import static org.viadsm.via.provider.tcp.FrameLayout.HEADER_LENGTH;

/**
 * The incoming side of a channel: reads from the socket into a direct buffer and hands each whole frame to the
 * channel's handler where it lies, without copying. A frame's length and version are checked as soon as its header
 * has arrived, against the handler's limit, before its payload is awaited; the buffer grows to hold a whole frame
 * up to that limit, and never more.
 * <p>
 * <b>Note:</b> not thread-safe; used under its channel's lock.
 */
final class FrameReader
{
    private final FrameFlyweight header = new FrameFlyweight();
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private ByteBuffer buffer;

    FrameReader(final int initialCapacity)
    {
        buffer = ByteBuffer.allocateDirect(initialCapacity);
        view.wrap(buffer);
    }

    /**
     * Room left in the buffer before the next read.
     */
    int space()
    {
        return buffer.remaining();
    }

    /**
     * Reads what the socket has.
     *
     * @return bytes read, 0 if none, -1 at end of stream.
     * @throws IOException if the socket fails.
     */
    int read(final SocketChannel socket) throws IOException
    {
        return socket.read(buffer);
    }

    /**
     * Hands every whole frame in the buffer to the channel's current handler (re-read for each frame, since a
     * frame may change the channel's phase); keeps an incomplete one.
     *
     * @param channel the channel.
     * @return false if the channel failed or closed.
     */
    boolean process(final TcpChannel channel)
    {
        final int fill = buffer.position();
        int start = 0;
        int needed = 0;
        while (!channel.isClosed() && fill - start >= HEADER_LENGTH)
        {
            header.wrap(view, start);
            final int length = header.frameLength();
            final int max = channel.handler().maxFrameLength();
            if (length < HEADER_LENGTH || length > max)
            {
                channel.fail("frame of " + length + " bytes from " + channel.description() + " outside [" +
                    HEADER_LENGTH + ", " + max + "]", true);
                return false;
            }
            if (FrameLayout.VERSION != header.version())
            {
                channel.fail("frame of version " + header.version() + " from " + channel.description() +
                    ", expected " + FrameLayout.VERSION, true);
                return false;
            }
            if (fill - start < length)
            {
                needed = length;
                break;
            }
            try
            {
                channel.handler().onFrame(channel, header, view, start + HEADER_LENGTH, length - HEADER_LENGTH);
            }
            catch (final RuntimeException ex)
            {
                channel.fail("frame " + header + " from " + channel.description() + " could not be handled: " + ex,
                    true);
                return false;
            }
            start += length;
        }
        if (channel.isClosed())
        {
            return false;
        }
        keep(start, fill, needed, channel.handler().maxFrameLength());
        return true;
    }

    /**
     * Bytes the buffer holds: never more than the initial capacity or the largest frame accepted.
     *
     * @return the capacity.
     */
    int capacity()
    {
        return buffer.capacity();
    }

    /**
     * Moves the unhandled bytes to the front, into a larger buffer if the incomplete frame needs one: twice the
     * size, but no larger than the largest frame accepted, so a peer cannot make it grow beyond that.
     */
    private void keep(final int start, final int fill, final int needed, final int maxFrameLength)
    {
        final int remaining = fill - start;
        if (needed > buffer.capacity())
        {
            final int capacity = (int)Math.min(Math.max(needed, buffer.capacity() * 2L), Math.max(needed,
                maxFrameLength));
            final ByteBuffer bigger = ByteBuffer.allocateDirect(capacity);
            new UnsafeBuffer(bigger).putBytes(0, view, start, remaining);
            buffer = bigger;
            view.wrap(buffer);
            buffer.position(remaining);
        }
        else if (start > 0)
        {
            view.putBytes(0, view, start, remaining);
            buffer.position(remaining);
        }
    }
}
