package org.viadsm.via.provider.tcp;

import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

import org.agrona.concurrent.UnsafeBuffer;

import static org.viadsm.via.provider.tcp.FrameLayout.HEADER_LENGTH;

/**
 * One TCP connection of a tcp NIC: its {@link FrameReader} hands each whole frame, checked for length and version,
 * to the handler of the connection's phase (the connector's during the handshake, then the VI's
 * {@link TcpConnection}); its {@link FrameWriter} stages outgoing frames, written without blocking.
 * <p>
 * <b>Note:</b> reading, staging and writing happen under this object's lock, which the engine thread and the
 * application threads making progress share; a handler runs under it. {@link #close()} and {@link #isClosed()}
 * may be called by any thread.
 */
final class TcpChannel
{
    /**
     * What a channel does with its frames in the current phase. Called under the channel's lock.
     */
    interface Handler
    {
        /**
         * The largest frame accepted now, header included.
         *
         * @return bytes.
         */
        int maxFrameLength();

        /**
         * A whole frame has arrived; its header was checked for length and version only.
         *
         * @param channel       the channel.
         * @param header        the header, wrapped.
         * @param buffer        the buffer holding the frame.
         * @param payloadOffset where the payload starts in {@code buffer}.
         * @param payloadLength payload bytes.
         */
        void onFrame(TcpChannel channel, FrameFlyweight header, UnsafeBuffer buffer, int payloadOffset,
            int payloadLength);

        /**
         * The peer closed its side; the handler closes the channel.
         *
         * @param channel the channel.
         */
        void onEndOfStream(TcpChannel channel);

        /**
         * The channel failed and is closed already.
         *
         * @param channel       the channel.
         * @param detail        what happened.
         * @param protocolError true if the peer broke the protocol (malformed, unknown or oversized frame), false
         *                      for an I/O error.
         */
        void onFailure(TcpChannel channel, String detail, boolean protocolError);

        /**
         * After each poll of an open channel: a chance to stage what waited for room.
         *
         * @param channel the channel.
         * @return the work done.
         */
        default int afterPoll(TcpChannel channel)
        {
            return 0;
        }
    }

    static final int INITIAL_CAPACITY = 64 * 1024;

    private final TcpEngine engine;
    private final SocketChannel socket;
    private final String description;
    private final FrameFlyweight writeHeader = new FrameFlyweight();
    private final FrameReader in = new FrameReader(INITIAL_CAPACITY);
    private final FrameWriter out = new FrameWriter(INITIAL_CAPACITY);
    private int frameOffset;
    private int frameLength;
    private final ChannelLock lock = new ChannelLock();
    private volatile Handler handler;
    private SelectionKey engineKey;
    private boolean shutdownRequested;
    private boolean acksOnly;
    private boolean acksHeld;
    private boolean outputShut;
    private volatile boolean writeInterest;
    private volatile boolean closed;
    private long lastReadNs = System.nanoTime();
    private long lastWriteNs = lastReadNs;

    TcpChannel(final TcpEngine engine, final SocketChannel socket, final String description, final Handler handler)
    {
        this.engine = engine;
        this.socket = socket;
        this.description = description;
        this.handler = handler;
    }

    SocketChannel socket()
    {
        return socket;
    }

    /**
     * Who is at the other end, for messages.
     */
    String description()
    {
        return description;
    }

    Handler handler()
    {
        return handler;
    }

    /**
     * Changes phase; the next frame goes to {@code next}. Called under the lock, typically by the old handler.
     */
    void handler(final Handler next)
    {
        handler = next;
    }

    /**
     * Engine thread: the channel's key in the engine's selector.
     */
    void engineKey(final SelectionKey key)
    {
        engineKey = key;
    }

    boolean isClosed()
    {
        return closed;
    }

    /**
     * Bytes the channel's frame reader holds, for checks that a peer cannot make it grow beyond the frame limit.
     */
    int readCapacity()
    {
        return in.capacity();
    }

    /**
     * Takes the channel's lock, which every other thread working the channel holds meanwhile.
     */
    void lock()
    {
        lock.lock();
    }

    void unlock()
    {
        lock.unlock();
    }

    /**
     * Reads and handles what has arrived, then writes what is staged; waits for the lock if another thread (one
     * posting) holds it.
     *
     * @return the work done, 0 if none.
     */
    int poll()
    {
        lock.lock();
        try
        {
            return pollLocked();
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * As {@link #poll()}, unless another thread holds the lock: that thread makes the progress then.
     *
     * @return the work done, 0 if none or busy.
     */
    int tryPoll()
    {
        if (closed || !lock.tryLock())
        {
            return 0;
        }
        try
        {
            return pollLocked();
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Keeps a connected VI's connection checked: fails it if nothing arrived for {@code timeoutNs} (the link is
     * down or the peer stopped), else sends a heartbeat if nothing went out for {@code intervalNs}. Skipped while
     * another thread holds the lock (it is working the channel).
     *
     * @param nowNs      the time.
     * @param intervalNs quiet time after which a heartbeat goes out.
     * @param timeoutNs  silence after which the peer is taken for lost.
     * @return 1 if it did something, else 0.
     */
    int checkLiveness(final long nowNs, final long intervalNs, final long timeoutNs)
    {
        if (closed || !(handler instanceof TcpConnection) || !lock.tryLock())
        {
            return 0;
        }
        try
        {
            if (closed)
            {
                return 0;
            }
            if (nowNs - lastReadNs > timeoutNs)
            {
                fail("nothing arrived from " + description + " for " + (nowNs - lastReadNs) / 1_000_000 +
                    " ms: its link is down or its process stopped", false);
                return 1;
            }
            if (nowNs - lastWriteNs >= intervalNs)
            {
                ((TcpConnection)handler).heartbeat();
                return 1;
            }
            return 0;
        }
        finally
        {
            lock.unlock();
        }
    }

    private int pollLocked()
    {
        if (closed)
        {
            return 0;
        }
        int work = read();
        if (acksOnly && !acksHeld && !engine.isEngineThread())
        {
            acksHeld = true;
            updateWriteInterest();
        }
        else if (!closed)
        {
            work += flush();
        }
        return closed ? work : work + handler.afterPoll(this);
    }

    /**
     * Starts a frame in the staging buffer; write its fields and payload, then {@link #commitFrame()}. Under the
     * lock.
     *
     * @param type          the frame type.
     * @param payloadLength bytes after the header.
     * @param sourceVi      the sending VI.
     * @param destinationVi the receiving VI.
     * @return the header flyweight, wrapped and cleared.
     */
    FrameFlyweight beginFrame(final int type, final int payloadLength, final int sourceVi, final int destinationVi)
    {
        frameLength = HEADER_LENGTH + payloadLength;
        frameOffset = out.reserve(frameLength);
        return writeHeader.wrap(out.view(), frameOffset).header(frameLength, type, sourceVi, destinationVi);
    }

    /**
     * The staging memory of the frame begun last.
     */
    UnsafeBuffer frameBuffer()
    {
        return out.view();
    }

    /**
     * Where the payload of the frame begun last goes in {@link #frameBuffer()}.
     */
    int payloadOffset()
    {
        return frameOffset + HEADER_LENGTH;
    }

    /**
     * Stages the frame begun last.
     *
     * @return the stream position after it.
     */
    long commitFrame()
    {
        acksOnly = false;
        out.commit(frameLength);
        return out.stagedPosition();
    }

    /**
     * Stages the frame begun last, an acknowledgement that may wait for the next frame: if an application thread
     * staged it while polling, it goes out with whatever that thread posts next, or at the next poll of the
     * channel (it is writable, so any poller gets to it), rather than in a write of its own.
     */
    void commitAcknowledgement()
    {
        acksOnly |= 0 == out.pending();
        out.commit(frameLength);
    }

    /**
     * Bytes staged and not yet written.
     */
    int pendingOutput()
    {
        return out.pending();
    }

    /**
     * Stream position after the last byte the socket took.
     */
    long writtenPosition()
    {
        return out.writtenPosition();
    }

    /**
     * Writes staged frames without blocking; under the lock.
     *
     * @return bytes written.
     */
    int flush()
    {
        int n = 0;
        acksHeld = false;
        if (out.pending() > 0)
        {
            try
            {
                n = out.flush(socket);
                acksOnly &= out.pending() > 0;
                if (n > 0)
                {
                    lastWriteNs = System.nanoTime();
                }
            }
            catch (final IOException ex)
            {
                fail("write to " + description + " failed: " + ex.getMessage(), false);
                return 1;
            }
        }
        if (shutdownRequested && !outputShut && 0 == out.pending())
        {
            outputShut = true;
            try
            {
                socket.shutdownOutput();
            }
            catch (final IOException ex)
            {
                close();
            }
        }
        updateWriteInterest();
        return n;
    }

    /**
     * Ends the channel gracefully: once the staged frames have left, the output is shut down; the handler (now one
     * that discards frames) closes the channel when the peer closes its side. Under the lock.
     *
     * @param draining the handler for what still arrives.
     */
    void shutdownAfterFlush(final Handler draining)
    {
        handler = draining;
        shutdownRequested = true;
        flush();
    }

    /**
     * Fails the channel: closes it, then tells the handler. Under the lock.
     *
     * @param detail        what happened.
     * @param protocolError whether the peer broke the protocol.
     */
    void fail(final String detail, final boolean protocolError)
    {
        if (closed)
        {
            return;
        }
        close();
        handler.onFailure(this, detail, protocolError);
    }

    /**
     * Closes the socket, which cancels its keys; idempotent, from any thread.
     */
    void close()
    {
        if (!closed)
        {
            closed = true;
            writeInterest = false;
            try
            {
                socket.close();
            }
            catch (final IOException ignore)
            {
                // closing a socket that failed; nothing is left to tell
            }
        }
    }

    @Override
    public String toString()
    {
        return "TcpChannel{" + description + (closed ? ", closed}" : "}");
    }

    private int read()
    {
        int work = 0;
        while (true)
        {
            final int space = in.space();
            final int n;
            try
            {
                n = in.read(socket);
            }
            catch (final IOException ex)
            {
                fail("read from " + description + " failed: " + ex.getMessage(), false);
                return work + 1;
            }
            if (n < 0)
            {
                handler.onEndOfStream(this);
                close();
                return work + 1;
            }
            if (0 == n)
            {
                return work;
            }
            work += n;
            lastReadNs = System.nanoTime();
            if (!in.process(this) || n < space)
            {
                return work;
            }
        }
    }

    private void updateWriteInterest()
    {
        final boolean want = out.pending() > 0 && !closed;
        if (want != writeInterest && null != engineKey)
        {
            writeInterest = want;
            try
            {
                engineKey.interestOps(want ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
            }
            catch (final CancelledKeyException ignore)
            {
                return;
            }
            if (want)
            {
                engine.wakeup();
            }
        }
    }
}
