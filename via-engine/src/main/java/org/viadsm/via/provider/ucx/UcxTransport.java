package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpListener;
import org.openucx.jucx.ucp.UcpListenerParams;
import org.openucx.jucx.ucp.UcpParams;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucp.UcpWorkerParams;
import org.viadsm.via.NicAttributes;
import org.viadsm.via.NicConfiguration;
import org.viadsm.via.NicContext;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.engine.Bell;
import org.viadsm.via.engine.Connector;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.NicArea;
import org.viadsm.via.engine.NicGeometry;
import org.viadsm.via.engine.NicTransport;
import org.viadsm.via.engine.PeerNic;
import org.viadsm.via.engine.ProviderSupport;
import org.viadsm.via.engine.SparseMemory;
import org.viadsm.via.internal.HostPortAddress;

/**
 * A NIC over one UCX worker. Its shared area is private to this process: peers reach its memory only through UCX,
 * one-sided (puts, gets, atomics on memory UCX allocated, checked at the initiator against a mirror of this NIC's
 * registration table), and its receive queues through active messages, which this NIC's engine code performs when
 * a thread of this process makes progress. VIs are set up over a UCX listener at the NIC's address (network
 * transports), then talk over endpoints made from the workers' addresses, so that UCX picks its fastest transport:
 * shared memory on one host, RDMA or TCP across hosts.
 * <p>
 * Threads: the callers make progress (done calls, and waits while they spin and each time they wake: past the
 * spin phase a wait sleeps on the worker's event file descriptor, see {@link UcxBell}). A progress thread runs
 * only where the transport needs one to answer the peers' one-sided operations, that is when UCX may talk TCP,
 * unless the context says otherwise ({@link UcxConfiguration#needsProgressThread}).
 */
final class UcxTransport implements NicTransport
{
    /** Heartbeats a watched link carries per peer timeout: several, so that one late heartbeat is no loss. */
    private static final int HEARTBEATS_PER_TIMEOUT = 5;
    /** Checks of the links per heartbeat interval. */
    private static final int CHECKS_PER_HEARTBEAT = 4;

    private final EngineNic nic;
    private final int slot;
    private final AtomicInteger visitors = new AtomicInteger();
    private volatile boolean closing;
    private final UcpContext context;
    private final UcpWorker worker;
    private final long workerHandle;
    private final UcpListener listener;
    private final byte[] workerAddress;
    /** Native memory of the NIC and of its links: freed by {@link #close()} after the worker, whose requests use it. */
    private final Arena arena = Arena.ofShared();
    private final OpenEndpoints endpoints = new OpenEndpoints();
    private final UcxLinkTable links;
    private final UcxMemory memory;
    private final MirrorPublisher publisher;
    private final UcxConnector connector;
    private final UcxProgressThread progressThread;
    private final UcxBells bells;
    private final UcxHandlers handlers;

    private UcxTransport(
        final EngineNic nic,
        final int slot,
        final UcpContext context,
        final UcpWorker worker,
        final UcpListener listener,
        final int maxBells)
    {
        this.nic = nic;
        this.slot = slot;
        this.context = context;
        this.worker = worker;
        this.workerHandle = worker.getNativeId();
        this.listener = listener;
        final ByteBuffer packed = worker.getAddress();
        this.workerAddress = new byte[packed.remaining()];
        packed.get(workerAddress);
        this.links = new UcxLinkTable(nic.attributes().maxVis());
        this.publisher = new MirrorPublisher(this, arena);
        this.memory = new UcxMemory(context);
        this.connector = new UcxConnector(this);
        this.handlers = new UcxHandlers(this, connector);
        this.bells = new UcxBells(this, workerHandle, maxBells);
        this.progressThread = new UcxProgressThread(this);
    }

    static EngineNic open(final String address, final HostPortAddress parsed, final NicContext nicContext)
    {
        final NicGeometry geometry = ProviderSupport.geometry(nicContext);
        final int slot = UcxNics.claim();
        UcpContext context = null;
        UcpWorker worker = null;
        UcpListener listener = null;
        try
        {
            context = new UcpContext(new UcpParams().requestRmaFeature().requestAmFeature()
                .requestAtomic64BitFeature().requestWakeupFeature().setMtWorkersShared(true));
            worker = context.newWorker(new UcpWorkerParams().requestThreadSafety());
            final UcxTransport[] created = new UcxTransport[1];
            try
            {
                listener = worker.newListener(new UcpListenerParams().setSockAddr(parsed.socketAddress())
                    .setConnectionHandler(request -> created[0].connector.onConnectionRequest(request)));
            }
            catch (final RuntimeException ex)
            {
                throw new ViaException(ViaError.ERROR_RESOURCE, "address in use: cannot listen at " + address +
                    ": " + ex.getMessage(), ex);
            }
            final String bound = parsed.withPort(listener.getAddress().getPort());
            final NicArea area = NicArea.create(
                new UnsafeBuffer(SparseMemory.mapUnlinked(nicContext.shmDirectory(), geometry.areaLength())),
                geometry, ProviderSupport.newNicId(), ProcessHandle.current().pid(), 0);
            final UcpContext ucpContext = context;
            final UcpWorker ucpWorker = worker;
            final UcpListener ucpListener = listener;
            final EngineNic nic = new EngineNic(bound, area,
                ProviderSupport.attributes(bound, geometry, nicContext.maxTransferSize()), nicContext,
                NicConfiguration.WAIT_SPIN_NS_DEFAULT,
                engineNic -> new UcxTransport(engineNic, slot, ucpContext, ucpWorker, ucpListener,
                    2 * geometry.maxVis() + geometry.maxCqs() + 1));
            final UcxTransport transport = (UcxTransport)nic.transport();
            created[0] = transport;
            UcxHandlers.install(transport.workerHandle, slot, transport.arena);
            UcxNics.publish(slot, transport);
            return nic;
        }
        catch (final RuntimeException ex)
        {
            UcxNics.release(slot);
            closeQuietly(listener, worker, context);
            if (ex instanceof ViaException || ex instanceof IllegalArgumentException)
            {
                throw ex;
            }
            throw new ViaException(ViaError.ERROR_RESOURCE, "cannot open a ucx NIC at " + address + ": " +
                ex.getMessage(), ex);
        }
    }

    EngineNic nic()
    {
        return nic;
    }

    String address()
    {
        return nic.address();
    }

    NicArea area()
    {
        return nic.area();
    }

    NicAttributes attributes()
    {
        return nic.attributes();
    }

    long nicId()
    {
        return nic.nicId();
    }

    boolean isClosed()
    {
        return nic.isClosed();
    }

    long workerHandle()
    {
        return workerHandle;
    }

    byte[] workerAddress()
    {
        return workerAddress.clone();
    }

    UcpWorker worker()
    {
        return worker;
    }

    OpenEndpoints endpoints()
    {
        return endpoints;
    }

    MirrorPublisher publisher()
    {
        return publisher;
    }

    UcxMemory memory()
    {
        return memory;
    }

    UcxHandlers handlers()
    {
        return handlers;
    }

    @Override
    public ByteBuffer mapMemory(final NicContext nicContext, final long allocationId, final int length)
    {
        return memory.allocate(allocationId, length);
    }

    /** Unmaps freed memory; a closed NIC's is unmapped by {@link #close()} after the worker, which may still use it. */
    @Override
    public void unmapMemory(final long allocationId, final ByteBuffer buffer)
    {
        if (!nic.isClosed())
        {
            memory.free(allocationId);
        }
    }

    @Override
    public boolean registersForeignMemory()
    {
        return false;
    }

    @Override
    public void onRegistrationChanged(final int index)
    {
        publisher.publish(index);
    }

    @Override
    public Connector connector()
    {
        return connector;
    }

    @Override
    public PeerNic resolvePeer(final String address)
    {
        throw new ViaException(ViaError.NOT_REACHABLE, "a ucx NIC reaches " + address + " through connections only");
    }

    /**
     * Makes progress on this NIC and on every other ucx NIC of this process: a real NIC moves data without the
     * host's threads, and a thread waiting on one NIC here may be the only thread that runs for another (two NICs
     * driven by one thread, in tests and tools).
     */
    @Override
    public int progress(final boolean spinning)
    {
        return progressOwn() + UcxNics.progressOthers(this);
    }

    /**
     * Enters a visit of another NIC's progress, unless this NIC is closing.
     */
    boolean enterVisit()
    {
        visitors.incrementAndGet();
        if (closing)
        {
            visitors.decrementAndGet();
            return false;
        }
        return true;
    }

    void leaveVisit()
    {
        visitors.decrementAndGet();
    }

    int progressOwn()
    {
        int work = progressWorker();
        work += connector.progress();
        for (final UcxLink link : links.active())
        {
            work += link.poll();
        }
        if (work > 0)
        {
            bells.wakeBlocked();
        }
        return work;
    }

    /**
     * Sends heartbeats on the links and fails those whose peer fell silent ({@link LinkLiveness}); from the
     * progress thread, twenty times per peer timeout.
     *
     * @param nowNs the time.
     * @return when to check next.
     */
    long checkLiveness(final long nowNs)
    {
        final long timeoutNs = nic.context().ucxPeerTimeoutNs();
        final long intervalNs = timeoutNs / HEARTBEATS_PER_TIMEOUT;
        for (final UcxLink link : links.active())
        {
            link.checkLiveness(nowNs, intervalNs, timeoutNs);
        }
        return nowNs + intervalNs / CHECKS_PER_HEARTBEAT;
    }

    /**
     * Blocks a wait that no completer fences for (a send queue, a connection) on a bell of its own until the worker
     * has an event, another thread's progress did work on this NIC, or the timeout passes.
     */
    @Override
    public boolean block(final long timeoutNs)
    {
        final UcxBell bell = bells.acquire(true);
        if (null == bell)
        {
            progress(false);
            return false;
        }
        try
        {
            bell.await(timeoutNs);
        }
        finally
        {
            bells.release(bell);
        }
        return true;
    }

    @Override
    public Bell acquireBell()
    {
        return bells.acquire(false);
    }

    @Override
    public void releaseBell(final Bell bell)
    {
        bells.release((UcxBell)bell);
    }

    /**
     * Lends a bell to this NIC's progress thread.
     */
    UcxBell progressBell()
    {
        return bells.acquire(false);
    }

    @Override
    public void checkTransport()
    {
        progress(false);
        connector.housekeeping();
    }

    @Override
    public boolean wakesArmedWaiters()
    {
        // without a bell, only a progress thread takes the peers' messages while every other thread of this NIC sleeps
        return progressThread.isRunning();
    }

    /**
     * The arena for a link's native memory (its send slots, its operations' parameters): a link's requests may still
     * point into it after the link is released, until the worker is destroyed, so it lives as long as the NIC.
     */
    Arena arena()
    {
        return arena;
    }

    /** Closes each endpoint once; once UCX is done ({@link WorkerRelease}) destroys the worker, then the memory. */
    @Override
    public void close()
    {
        closing = true;
        UcxNics.withdraw(slot);
        while (visitors.get() > 0)
        {
            Thread.onSpinWait();
        }
        progressThread.close();
        bells.close();
        endpoints.drain();
        for (final UcxLink link : links.clear())
        {
            closeLink(link);
        }
        connector.close();
        endpoints.closeAll();
        listener.close();
        // every step runs whichever fails (the first failure thrown, the later ones suppressed), the slot last
        WorkerRelease.release(nic.address(), worker, endpoints, progressThread::hasEnded, () -> CloseHelper.closeAll(
            worker::close, memory::close, context::close, arena::close, () -> UcxNics.release(slot)));
    }

    /**
     * Runs UCX's progress once on this thread.
     *
     * @return the events UCX handled.
     */
    int progressWorker()
    {
        try
        {
            return worker.progress();
        }
        catch (final Exception ex)
        {
            return 1;
        }
    }

    /**
     * A link is established: starts the progress thread if the context asks for one always, or for one where
     * UCX may talk TCP and this link may; if the thread runs (this NIC sends heartbeats), the link is watched at
     * once where the peer said it sends them too.
     */
    void onLinkEstablished(final UcxLink link, final String peerAddress)
    {
        if (UcxConfiguration.needsProgressThread(nic.context().ucxProgressThread(), peerAddress))
        {
            progressThread.start();
        }
        if (progressThread.isRunning())
        {
            link.onEstablished(System.nanoTime());
        }
    }

    /**
     * Whether this NIC sends heartbeats on a link to a peer at this address: its progress thread runs, or will once
     * the link is established.
     */
    boolean sendsHeartbeatsTo(final String peerAddress)
    {
        return progressThread.isRunning() ||
            UcxConfiguration.needsProgressThread(nic.context().ucxProgressThread(), peerAddress);
    }

    void attach(final UcxLink link)
    {
        links.attach(link);
    }

    /**
     * A link's VI disconnected or its connection broke for good: forgets it and releases its UCX resources.
     */
    void release(final UcxLink link)
    {
        if (links.remove(link))
        {
            closeLink(link);
        }
    }

    private void closeLink(final UcxLink link)
    {
        publisher.unsubscribe(link);
        link.close();
        UcxEndpoints.close(this, link.data());
        UcxEndpoints.close(this, link.control());
    }

    UcxLink link(final int viId)
    {
        return links.link(viId);
    }

    private static void closeQuietly(final UcpListener listener, final UcpWorker worker, final UcpContext context)
    {
        if (null != listener)
        {
            listener.close();
        }
        if (null != worker)
        {
            worker.close();
        }
        if (null != context)
        {
            context.close();
        }
    }
}
