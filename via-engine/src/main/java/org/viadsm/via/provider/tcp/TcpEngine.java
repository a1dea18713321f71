package org.viadsm.via.provider.tcp;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.viadsm.via.AsyncError;

/**
 * The engine thread of a tcp NIC, an Agrona {@link Agent} on its own {@link AgentRunner}: one selector loop serves
 * every socket of the NIC. It accepts connections, drives outgoing connects and their retries, and reads every
 * readable socket, so the target side of remote operations (RDMA, atomics, Sends into posted receives, connection
 * requests) and the completion of local ones happen without the application.
 * <p>
 * Application threads make progress too: a wait in its spin phase polls the NIC's connected sockets through a
 * second selector ({@link #progress(boolean)}), under the same per-channel locks. While they do, they hold a
 * poll lease and the engine thread sleeps instead of waking on each frame; a thread that ends its spin phase to
 * park hands the sockets back at once ({@link #endLease()}), and an expired lease hands them back by itself.
 * <p>
 * The loop blocks in the selector (with a short timeout for connect retries), so it runs with a no-op idle
 * strategy and never spins.
 * <p>
 * <b>Note:</b> {@link #progress(boolean)}, {@link #endLease()}, {@link #connect(PendingRequest)} and
 * {@link #wakeup()} may be called by any thread.
 */
final class TcpEngine implements Agent
{
    private static final long SELECT_TIMEOUT_MS = 10;
    /** The engine whose lease each thread holds, so that a thread moving on to another NIC gives it back. */
    private static final ThreadLocal<WeakReference<TcpEngine>> LEASE_HELD = new ThreadLocal<>();

    private final TcpNic nic;
    private final ServerSocketChannel server;
    private final Selector selector;
    private final Selector pollSelector;
    private final long leaseNs;
    private final long leaseMaxNs;
    private long leaseParkNs;
    private final Consumer<SelectionKey> onReady = this::onReady;
    private final Consumer<SelectionKey> onPollReady = this::onPollReady;
    private final ConcurrentLinkedQueue<PendingRequest> connects = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean polling = new AtomicBoolean();
    private final AgentRunner runner;
    private final WeakReference<TcpEngine> leaseToken = new WeakReference<>(this);
    private volatile TcpChannel[] connected = new TcpChannel[0];
    private volatile long leaseUntilNs;
    private volatile boolean leaseParked;
    private volatile Thread thread;

    TcpEngine(final TcpNic nic, final ServerSocketChannel server) throws IOException
    {
        this.nic = nic;
        this.server = server;
        this.leaseNs = TcpConfiguration.pollLeaseNs();
        this.leaseMaxNs = TcpConfiguration.pollLeaseMaxNs();
        this.leaseParkNs = leaseNs;
        this.selector = Selector.open();
        this.pollSelector = Selector.open();
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        this.runner = new AgentRunner(NoOpIdleStrategy.INSTANCE, this::onError, null, this);
    }

    void start()
    {
        AgentRunner.startOnThread(runner);
    }

    @Override
    public String roleName()
    {
        return "viadsm-" + nic.address();
    }

    @Override
    public void onStart()
    {
        thread = Thread.currentThread();
    }

    @Override
    public int doWork() throws IOException
    {
        int work = openConnects();
        final long nowNs = System.nanoTime();
        work += nic.tcpConnector().onTimer(nowNs);
        if (leaseUntilNs - nowNs > 0)
        {
            leaseParked = true;
            if (leaseUntilNs - nowNs > 0)
            {
                LockSupport.parkNanos(this, leaseParkNs);
                leaseParkNs = Math.min(leaseParkNs << 1, leaseMaxNs);
            }
            leaseParked = false;
            return work + 1;
        }
        leaseParkNs = leaseNs;
        return work + (work > 0 ? selector.selectNow(onReady) : selector.select(onReady, SELECT_TIMEOUT_MS));
    }

    /**
     * Lets an application thread read the NIC's connected sockets and flush their staged frames; several threads
     * may call, one polls at a time.
     *
     * @param spinning whether the caller is in a wait's spin phase, which renews the poll lease.
     * @return the work done.
     */
    int progress(final boolean spinning)
    {
        if (spinning)
        {
            holdLease();
            leaseUntilNs = System.nanoTime() + leaseNs;
        }
        if (!polling.compareAndSet(false, true))
        {
            return 0;
        }
        try
        {
            int work = pollSelector.selectNow(onPollReady);
            for (final TcpChannel channel : connected)
            {
                if (channel.hasPendingOutput())
                {
                    work += channel.tryPoll();
                }
            }
            return work;
        }
        catch (final IOException | ClosedSelectorException ex)
        {
            return 0;
        }
        finally
        {
            polling.set(false);
        }
    }

    /**
     * The calling application thread stops polling (it is about to park): the engine thread takes over now.
     */
    void endLease()
    {
        if (leaseToken == LEASE_HELD.get())
        {
            LEASE_HELD.set(null);
        }
        release();
    }

    private void holdLease()
    {
        final WeakReference<TcpEngine> held = LEASE_HELD.get();
        if (leaseToken != held)
        {
            final TcpEngine previous = null == held ? null : held.get();
            if (null != previous)
            {
                previous.release();
            }
            LEASE_HELD.set(leaseToken);
        }
    }

    private void release()
    {
        leaseUntilNs = 0;
        if (leaseParked)
        {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Opens a connection for a request, on the engine thread soon.
     *
     * @param request the request.
     */
    void connect(final PendingRequest request)
    {
        connects.offer(request);
        wakeup();
    }

    /**
     * Makes the engine thread look at its sockets again (a channel wants to write, or a connect is queued); does
     * nothing on the engine thread.
     */
    void wakeup()
    {
        final Thread engine = thread;
        if (Thread.currentThread() != engine)
        {
            selector.wakeup();
            if (leaseParked)
            {
                LockSupport.unpark(engine);
            }
        }
    }

    /**
     * A channel's handshake is over: application threads may poll it from now on.
     *
     * @param channel the channel of a connected VI.
     */
    void pollable(final TcpChannel channel)
    {
        try
        {
            channel.socket().register(pollSelector, SelectionKey.OP_READ, channel);
        }
        catch (final IOException | RuntimeException ex)
        {
            // a channel already closed: its VI learns it from the engine's own key
            return;
        }
        synchronized (this)
        {
            final TcpChannel[] old = connected;
            int live = 0;
            for (final TcpChannel c : old)
            {
                live += c.isClosed() ? 0 : 1;
            }
            final TcpChannel[] next = new TcpChannel[live + 1];
            int i = 0;
            for (final TcpChannel c : old)
            {
                if (!c.isClosed())
                {
                    next[i++] = c;
                }
            }
            next[i] = channel;
            connected = next;
        }
    }

    /**
     * Stops the engine thread, then closes every socket and both selectors; from the thread closing the NIC.
     */
    void close()
    {
        selector.wakeup();
        release();
        CloseHelper.quietClose(runner);
        for (final SelectionKey key : selector.keys())
        {
            if (key.attachment() instanceof TcpChannel)
            {
                ((TcpChannel)key.attachment()).close();
            }
        }
        CloseHelper.quietCloseAll(server, selector, pollSelector);
    }

    private int openConnects()
    {
        int work = 0;
        PendingRequest request;
        while (null != (request = connects.poll()))
        {
            open(request);
            work++;
        }
        return work;
    }

    /**
     * Engine thread: opens a connection for a request.
     */
    void open(final PendingRequest request)
    {
        final OutgoingHandshake handshake = new OutgoingHandshake(nic.tcpConnector(), request);
        SocketChannel socket = null;
        try
        {
            socket = SocketChannel.open();
            configure(socket);
            final TcpChannel channel = new TcpChannel(this, socket, request.address, handshake);
            if (!nic.tcpConnector().attach(request, channel))
            {
                channel.close();
                return;
            }
            final boolean done = socket.connect(request.target.socketAddress());
            final SelectionKey key = socket.register(selector, done ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT,
                channel);
            channel.engineKey(key);
            if (done)
            {
                handshake.onConnected(channel);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietClose(socket);
            handshake.onConnectFailed(ex);
        }
    }

    private void onReady(final SelectionKey key)
    {
        final Object attachment = key.attachment();
        if (null == attachment)
        {
            accept();
        }
        else if (key.isValid() && key.isConnectable())
        {
            finishConnect(key, (TcpChannel)attachment);
        }
        else
        {
            ((TcpChannel)attachment).poll();
        }
    }

    private void onPollReady(final SelectionKey key)
    {
        ((TcpChannel)key.attachment()).tryPoll();
    }

    private void finishConnect(final SelectionKey key, final TcpChannel channel)
    {
        final OutgoingHandshake handshake = (OutgoingHandshake)channel.handler();
        try
        {
            channel.socket().finishConnect();
            key.interestOps(SelectionKey.OP_READ);
        }
        catch (final IOException | RuntimeException ex)
        {
            channel.close();
            handshake.onConnectFailed(ex);
            return;
        }
        handshake.onConnected(channel);
    }

    private void accept()
    {
        while (true)
        {
            SocketChannel socket = null;
            try
            {
                socket = server.accept();
                if (null == socket)
                {
                    return;
                }
                configure(socket);
                final TcpChannel channel = new TcpChannel(
                    this, socket, String.valueOf(socket.getRemoteAddress()), nic.tcpConnector().newIncoming());
                channel.engineKey(socket.register(selector, SelectionKey.OP_READ, channel));
            }
            catch (final IOException ex)
            {
                CloseHelper.quietClose(socket);
                return;
            }
        }
    }

    private static void configure(final SocketChannel socket) throws IOException
    {
        socket.configureBlocking(false);
        socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
        socket.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
    }

    private void onError(final Throwable error)
    {
        if (!nic.isClosed())
        {
            nic.area().errors().offer(AsyncError.CATASTROPHIC, -1,
                "the engine thread of " + nic.address() + " failed: " + error);
        }
    }
}
