package org.viadsm.via.provider.tcp;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.viadsm.via.AsyncError;
import org.viadsm.via.engine.EngineNic;

/**
 * The progress engine of a tcp NIC: one selector serves every socket of the NIC (the listener, connections being
 * set up, connected VIs). Whichever thread holds the poller role selects on it and handles what is ready: it
 * accepts connections, drives outgoing connects and their retries, and reads every readable socket, so the target
 * side of remote operations (RDMA, atomics, Sends into posted receives, connection requests) and the completion of
 * local ones happen without the application.
 * <p>
 * The engine thread, an Agrona {@link Agent} on its own {@link AgentRunner}, holds the role by default and blocks
 * in the selector (with a short timeout for connect retries), so it runs with a no-op idle strategy and never
 * spins. An application thread waiting on one of the NIC's queues takes over: during its spin phase it polls the
 * selector itself ({@link #progress(boolean)}), or reads the connected sockets directly if the engine thread still
 * has the role, and past its spin phase it blocks in the selector instead of parking ({@link #block(long)}), so
 * that an answer costs no hand-off between threads. Meanwhile it holds the {@link PollLease} and the engine
 * thread sleeps instead of being woken by every frame and competing for the sockets.
 * <p>
 * <b>Note:</b> every method but the agent's may be called by any thread.
 */
final class TcpEngine implements Agent
{
    private static final long SELECT_TIMEOUT_MS = 10;
    /** Heartbeats a quiet connection carries per peer timeout: several, so that one late heartbeat is no loss. */
    private static final int HEARTBEATS_PER_TIMEOUT = 5;
    /** Liveness checks per heartbeat interval. */
    private static final int CHECKS_PER_HEARTBEAT = 4;

    private final EngineNic nic;
    private final TcpTransport transport;
    private final ServerSocketChannel server;
    private final Selector selector;
    private final PollLease lease;
    private final Consumer<SelectionKey> onReady = this::onReady;
    private final ConcurrentLinkedQueue<PendingRequest> connects = new ConcurrentLinkedQueue<>();
    private final AtomicReference<Thread> poller = new AtomicReference<>();
    private final AgentRunner runner;
    private volatile TcpChannel[] connected = new TcpChannel[0];
    private volatile Thread thread;
    private final long peerTimeoutNs;
    private final long heartbeatIntervalNs;
    private volatile long nextLivenessCheckNs = System.nanoTime();

    TcpEngine(final EngineNic nic, final TcpTransport transport, final ServerSocketChannel server) throws IOException
    {
        this.nic = nic;
        this.transport = transport;
        this.server = server;
        this.lease = new PollLease(nic.context().tcp().pollLeaseNs(), nic.context().tcp().pollLeaseMaxNs());
        this.peerTimeoutNs = nic.context().tcp().peerTimeoutNs();
        this.heartbeatIntervalNs = peerTimeoutNs / HEARTBEATS_PER_TIMEOUT;
        this.selector = Selector.open();
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        this.runner = new AgentRunner(NoOpIdleStrategy.INSTANCE, this::onError, null, this);
    }

    /**
     * Starts the engine thread, a daemon: a NIC left open does not keep the JVM alive.
     */
    void start()
    {
        AgentRunner.startOnThread(runner, task ->
        {
            final Thread daemon = new Thread(task);
            daemon.setDaemon(true);
            return daemon;
        });
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
        lease.engine(thread);
    }

    @Override
    public int doWork() throws IOException
    {
        if (lease.sleepIfHeld(System.nanoTime()))
        {
            return 1;
        }
        if (!poller.compareAndSet(null, thread))
        {
            LockSupport.parkNanos(this, lease.leaseNs());
            return 0;
        }
        try
        {
            return pollOnce(SELECT_TIMEOUT_MS);
        }
        finally
        {
            poller.set(null);
        }
    }

    /**
     * Lets an application thread poll the NIC's sockets once, if no other thread polls them.
     *
     * @param spinning whether the caller is in a wait's spin phase, which renews the poll lease.
     * @return the work done.
     */
    int progress(final boolean spinning)
    {
        if (!lease.isEnabled())
        {
            return 0;
        }
        if (spinning)
        {
            lease.hold(System.nanoTime() + lease.leaseNs());
        }
        if (!acquirePoller(spinning))
        {
            return spinning ? pollDirectly() : 0;
        }
        try
        {
            return pollOnce(0);
        }
        catch (final IOException | ClosedSelectorException ex)
        {
            return 0;
        }
        finally
        {
            poller.set(null);
        }
    }

    /**
     * Lets a waiting application thread block in the selector, handling what becomes ready, instead of parking.
     * If another thread (the engine thread, or another waiting thread) holds the poller role, the caller parks
     * instead and that thread, which handles its completion, wakes it.
     *
     * @param timeoutNs how long it would have parked.
     * @return false if another thread polls (the caller parks instead).
     */
    boolean block(final long timeoutNs)
    {
        if (!lease.isEnabled() || !poller.compareAndSet(null, Thread.currentThread()))
        {
            return false;
        }
        lease.hold(System.nanoTime() + timeoutNs + lease.leaseNs());
        try
        {
            pollOnce(Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNs)));
        }
        catch (final IOException | ClosedSelectorException ex)
        {
            LockSupport.parkNanos(timeoutNs);
        }
        finally
        {
            poller.set(null);
        }
        return true;
    }

    /**
     * A wait of the calling application thread that went past its spin phase is over: it keeps the lease one more
     * lease, and the engine thread sleeps on.
     */
    void onBlockedWaitEnd()
    {
        lease.onBlockedWaitEnd();
    }

    /**
     * Opens a connection for a request, from the polling thread soon.
     *
     * @param request the request.
     */
    void connect(final PendingRequest request)
    {
        connects.offer(request);
        wakeup();
    }

    boolean isEngineThread()
    {
        return Thread.currentThread() == thread;
    }

    /**
     * Makes the polling thread look at the sockets again (a channel wants to write, or a connect is queued).
     */
    void wakeup()
    {
        if (Thread.currentThread() != poller.get())
        {
            selector.wakeup();
            lease.wakeEngine();
        }
    }

    /**
     * Stops the engine thread, then closes every socket and the selector; from the thread closing the NIC.
     */
    void close()
    {
        lease.release();
        selector.wakeup();
        CloseHelper.quietClose(runner);
        try
        {
            for (final SelectionKey key : selector.keys())
            {
                if (key.attachment() instanceof TcpChannel)
                {
                    ((TcpChannel)key.attachment()).close();
                }
            }
        }
        catch (final ClosedSelectorException ignore)
        {
            // closed already
        }
        CloseHelper.quietCloseAll(server, selector);
    }

    /**
     * The polling thread: opens a connection for a request.
     */
    void open(final PendingRequest request)
    {
        final OutgoingHandshake handshake = new OutgoingHandshake(transport.connectionSetup(), request);
        SocketChannel socket = null;
        try
        {
            socket = SocketChannel.open();
            configure(socket);
            final TcpChannel channel = new TcpChannel(this, socket, request.address(), handshake);
            if (!transport.connectionSetup().attach(request, channel))
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

    /**
     * A connection is up: application threads may read it directly when they cannot poll the selector.
     *
     * @param channel the channel of a connected VI.
     */
    void pollable(final TcpChannel channel)
    {
        synchronized (this)
        {
            int live = 0;
            for (final TcpChannel c : connected)
            {
                live += c.isClosed() ? 0 : 1;
            }
            final TcpChannel[] next = new TcpChannel[live + 1];
            int i = 0;
            for (final TcpChannel c : connected)
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
     * A spinning thread that cannot take the poller role (the engine thread has it, and has not run since it was
     * asked to step aside, which on a busy machine can take a scheduler slice) reads the connected sockets
     * directly, so that the waits of a ping-pong do not stall behind a thread that is not running.
     */
    private int pollDirectly()
    {
        int work = 0;
        for (final TcpChannel channel : connected)
        {
            work += channel.tryPoll();
        }
        return work;
    }

    private int pollOnce(final long timeoutMs) throws IOException
    {
        int work = 0;
        PendingRequest request;
        while (null != (request = connects.poll()))
        {
            open(request);
            work++;
        }
        final long nowNs = System.nanoTime();
        work += transport.connectionSetup().onTimer(nowNs);
        work += checkLiveness(nowNs);
        return work + (work > 0 || 0 == timeoutMs ? selector.selectNow(onReady) : selector.select(onReady, timeoutMs));
    }

    /**
     * Every few hundred milliseconds: heartbeats on quiet connections, and the failure of those whose peer has
     * been silent for the peer timeout, since TCP itself notices a link that went down only after minutes (or
     * never, on an idle connection).
     */
    private int checkLiveness(final long nowNs)
    {
        if (nowNs - nextLivenessCheckNs < 0)
        {
            return 0;
        }
        nextLivenessCheckNs = nowNs + heartbeatIntervalNs / CHECKS_PER_HEARTBEAT;
        int work = 0;
        for (final TcpChannel channel : connected)
        {
            work += channel.checkLiveness(nowNs, heartbeatIntervalNs, peerTimeoutNs);
        }
        return work;
    }

    /**
     * Takes the poller role if it is free.
     *
     * @param leased whether the caller holds the lease: then an engine thread holding the role is woken, and steps
     *               aside for the caller.
     */
    private boolean acquirePoller(final boolean leased)
    {
        if (poller.compareAndSet(null, Thread.currentThread()))
        {
            return true;
        }
        final Thread engine = thread;
        if (leased && null != engine && engine == poller.get())
        {
            selector.wakeup();
        }
        return false;
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
                    this, socket, String.valueOf(socket.getRemoteAddress()), transport.connectionSetup().newIncoming());
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
            nic.reportError(AsyncError.CATASTROPHIC, -1,
                "the engine thread of " + nic.address() + " failed: " + error);
        }
    }
}
