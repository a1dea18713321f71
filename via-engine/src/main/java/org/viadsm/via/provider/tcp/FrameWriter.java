package org.viadsm.via.provider.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The outgoing side of a channel: whole frames are staged in a direct buffer and written to the socket without
 * blocking; what the socket does not take stays staged for the next flush. The buffer grows to hold whatever is
 * staged (at most the responses the peer asked for plus the requests admitted under the soft limit), so staging a
 * response never waits.
 * <p>
 * Stream positions count every byte ever staged or written, so a frame's end position tells when it has left.
 * <p>
 * <b>Note:</b> not thread-safe; used under its channel's lock.
 */
final class FrameWriter
{
    private ByteBuffer buffer;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private int written;
    private int staged;
    private long stagedPosition;
    private long writtenPosition;

    FrameWriter(final int initialCapacity)
    {
        buffer = ByteBuffer.allocateDirect(initialCapacity);
        view.wrap(buffer);
    }

    /**
     * The staging memory; valid until the next {@link #reserve(int)}.
     */
    UnsafeBuffer view()
    {
        return view;
    }

    /**
     * Bytes staged and not yet written.
     */
    int pending()
    {
        return staged - written;
    }

    /**
     * Stream position after the last staged byte.
     */
    long stagedPosition()
    {
        return stagedPosition;
    }

    /**
     * Stream position after the last byte the socket took.
     */
    long writtenPosition()
    {
        return writtenPosition;
    }

    /**
     * Makes room for a frame.
     *
     * @param length the frame's bytes.
     * @return its offset in {@link #view()}; the caller writes it, then calls {@link #commit(int)}.
     */
    int reserve(final int length)
    {
        if (staged + length > view.capacity())
        {
            compact();
            if (staged + length > view.capacity())
            {
                grow(staged + length);
            }
        }
        return staged;
    }

    /**
     * Stages the frame written at the offset {@link #reserve(int)} returned.
     *
     * @param length the frame's bytes.
     */
    void commit(final int length)
    {
        staged += length;
        stagedPosition += length;
    }

    /**
     * Writes staged bytes without blocking.
     *
     * @param channel the socket.
     * @return bytes written.
     * @throws IOException if the socket fails.
     */
    int flush(final SocketChannel channel) throws IOException
    {
        if (staged == written)
        {
            return 0;
        }
        buffer.limit(staged).position(written);
        final int n = channel.write(buffer);
        written += n;
        writtenPosition += n;
        if (written == staged)
        {
            written = 0;
            staged = 0;
        }
        return n;
    }

    private void compact()
    {
        if (written > 0)
        {
            view.putBytes(0, view, written, staged - written);
            staged -= written;
            written = 0;
        }
    }

    private void grow(final int required)
    {
        final ByteBuffer bigger = ByteBuffer.allocateDirect(
            Math.max(required, (int)Math.min(Integer.MAX_VALUE - BitUtil.CACHE_LINE_LENGTH, 2L * view.capacity())));
        final UnsafeBuffer old = new UnsafeBuffer(buffer);
        new UnsafeBuffer(bigger).putBytes(0, old, 0, staged);
        buffer = bigger;
        view.wrap(buffer);
    }
}
