package org.viadsm.via.provider.shm;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.CloseHelper;

/**
 * The ringing side of the bells of one peer NIC: a connection to each bell rung so far, opened on its first
 * ring, and one byte written per ring. Nothing here blocks: the sockets are non-blocking, a connect that does not
 * complete at once or a write that fails drops the connection (it is opened again at the next ring), and a write
 * the socket has no room for is skipped (the bytes already there wake the sleeper). A ring that fails is ignored:
 * the sleeper's bounded sleep covers it.
 * <p>
 * <b>Note:</b> thread-safe; rings are serialized, which costs nothing on the data path since a completer rings only
 * a thread that announced it sleeps.
 */
final class ShmRinger implements AutoCloseable
{
    private final Path directory;
    private final String name;
    private final long ownerPid;
    private final AtomicLong rung = new AtomicLong();
    private final SocketChannel[] channels;
    private final ByteBuffer one = ByteBuffer.allocateDirect(1);
    private boolean closed;

    /**
     * Rings nothing until asked.
     *
     * @param directory the NIC files' directory.
     * @param name      the peer NIC's name.
     * @param ownerPid  the peer NIC's process.
     * @param bells how many bells the peer may have: ids beyond are ignored.
     */
    ShmRinger(final Path directory, final String name, final long ownerPid, final int bells)
    {
        this.directory = directory;
        this.name = name;
        this.ownerPid = ownerPid;
        this.channels = new SocketChannel[bells];
    }

    /**
     * Rings a bell of the peer.
     *
     * @param id the bell's id, from a sleeper word of the peer's area.
     */
    synchronized void ring(final int id)
    {
        if (closed || id < 0 || id >= channels.length)
        {
            return;
        }
        SocketChannel channel = channels[id];
        try
        {
            if (null == channel)
            {
                channel = connect(ShmFiles.bellFile(directory, name, ownerPid, id));
                if (null == channel)
                {
                    return;
                }
                channels[id] = channel;
            }
            one.clear();
            if (channel.write(one) > 0)
            {
                rung.incrementAndGet();
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietClose(channel);
            channels[id] = null;
        }
    }

    /**
     * Rings written so far.
     */
    long rings()
    {
        return rung.get();
    }

    @Override
    public synchronized void close()
    {
        closed = true;
        CloseHelper.quietCloseAll(channels);
        java.util.Arrays.fill(channels, null);
    }

    private static SocketChannel connect(final Path file)
    {
        SocketChannel channel = null;
        try
        {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            channel.configureBlocking(false);
            if (channel.connect(UnixDomainSocketAddress.of(file)))
            {
                return channel;
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // no bell there (the peer closed, died, or never slept), or its backlog is full
        }
        CloseHelper.quietClose(channel);
        return null;
    }
}
