package org.viadsm.via.provider.shm;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.agrona.CloseHelper;
import org.viadsm.via.engine.Bell;

/**
 * The waiting side of a bell of a shm NIC: a UNIX-domain stream socket listening at its file, and a selector
 * the sleeping thread blocks in. Completers in other processes connect once and write one byte per ring
 * ({@link ShmRinger}); the sleeping thread accepts their connections and drains what they wrote as it wakes.
 * <p>
 * <b>Note:</b> {@link #await(long)} is called by the one thread the NIC lent the bell to, {@link #wakeup()} by
 * any thread, {@link #close()} by the thread closing the NIC.
 */
final class ShmBell implements Bell, AutoCloseable
{
    private final int id;
    private final Path file;
    private final ServerSocketChannel server;
    private final Selector selector;
    private final AtomicLong heard;
    private final ByteBuffer drain = ByteBuffer.allocateDirect(64);
    private final Consumer<SelectionKey> onReady = this::onReady;
    private final ArrayList<SocketChannel> ringers = new ArrayList<>();

    private ShmBell(
        final int id, final Path file, final ServerSocketChannel server, final Selector selector,
        final AtomicLong heard)
    {
        this.id = id;
        this.file = file;
        this.server = server;
        this.selector = selector;
        this.heard = heard;
    }

    /**
     * Binds a bell at its file, replacing a file left there (the name carries this process's id, so only a
     * NIC of this process that went before could have left it).
     *
     * @param id    the bell's id in its NIC.
     * @param file  where to listen.
     * @param heard counts the rings heard.
     * @return the bell.
     * @throws IOException if the socket cannot be made (no UNIX-domain sockets, a path too long for one).
     */
    static ShmBell open(final int id, final Path file, final AtomicLong heard) throws IOException
    {
        ShmFiles.deleteQuietly(file);
        final ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        Selector selector = null;
        try
        {
            server.bind(UnixDomainSocketAddress.of(file));
            server.configureBlocking(false);
            selector = Selector.open();
            server.register(selector, SelectionKey.OP_ACCEPT);
            return new ShmBell(id, file, server, selector, heard);
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietCloseAll(selector, server);
            ShmFiles.deleteQuietly(file);
            throw ex;
        }
    }

    @Override
    public int id()
    {
        return id;
    }

    Path file()
    {
        return file;
    }

    @Override
    public void await(final long timeoutNs)
    {
        try
        {
            selector.select(onReady, Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNs)));
        }
        catch (final ClosedSelectorException ex)
        {
            // the NIC is closing: the wait sees it at its next step
        }
        catch (final IOException ex)
        {
            LockSupport.parkNanos(timeoutNs);
        }
    }

    @Override
    public void wakeup()
    {
        selector.wakeup();
    }

    /**
     * Closes the sockets and the selector and deletes the file.
     */
    @Override
    public void close()
    {
        synchronized (ringers)
        {
            CloseHelper.quietCloseAll(ringers);
            ringers.clear();
        }
        CloseHelper.quietCloseAll(server, selector);
        ShmFiles.deleteQuietly(file);
    }

    private void onReady(final SelectionKey key)
    {
        if (key.isAcceptable())
        {
            accept();
        }
        else if (key.isReadable())
        {
            read(key);
        }
    }

    /**
     * Accepts the ringers waiting. A failure (out of file descriptors, say) leaves them in the backlog for a later
     * await; the listening key stays registered whatever happens, or new ringers would never be heard.
     */
    private void accept()
    {
        SocketChannel ringer;
        try
        {
            ringer = server.accept();
        }
        catch (final IOException ex)
        {
            return;
        }
        while (null != ringer)
        {
            final SelectionKey key;
            try
            {
                ringer.configureBlocking(false);
                key = ringer.register(selector, SelectionKey.OP_READ);
            }
            catch (final IOException | RuntimeException ex)
            {
                CloseHelper.quietClose(ringer);
                return;
            }
            synchronized (ringers)
            {
                ringers.add(ringer);
            }
            // a ringer writes its first ring as soon as it connects: take it now rather than at the next await
            read(key);
            try
            {
                ringer = server.accept();
            }
            catch (final IOException ex)
            {
                return;
            }
        }
    }

    private void read(final SelectionKey key)
    {
        final SocketChannel ringer = (SocketChannel)key.channel();
        int read;
        try
        {
            do
            {
                drain.clear();
                read = ringer.read(drain);
                if (read > 0)
                {
                    heard.addAndGet(read);
                }
            }
            while (read > 0);
        }
        catch (final IOException ex)
        {
            read = -1;
        }
        if (read < 0)
        {
            drop(key);
        }
    }

    /**
     * Forgets a ringer whose process closed its end (or died) or whose socket failed.
     */
    private void drop(final SelectionKey key)
    {
        key.cancel();
        synchronized (ringers)
        {
            ringers.remove(key.channel());
        }
        CloseHelper.quietClose(key.channel());
    }
}
