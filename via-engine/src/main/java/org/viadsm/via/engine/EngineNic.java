package org.viadsm.via.engine;

import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.via.AsyncError;
import org.viadsm.via.AsyncErrorHandler;
import org.viadsm.via.CompletionQueue;
import org.viadsm.via.ConnectRequest;
import org.viadsm.via.Nic;
import org.viadsm.via.NicAttributes;
import org.viadsm.via.NicContext;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

/**
 * The emulated NIC: everything but how its peers, their memory and its sleeping waiters are reached, which the
 * provider's {@link NicTransport} says.
 * <p>
 * Progress is driven by the caller; there is no engine thread. A post executes the operation on the posting
 * thread, directly on the target's shared area and registered memory, and completes it at both ends before it
 * returns, so a queue fence is always satisfied (a transport that reaches peers through messages completes it
 * later instead). Waits spin briefly, then sleep until a completer wakes them (see {@link Idler}): a completer in
 * the same JVM unparks the waiter, one in another process rings the bell the transport lends the waiter
 * ({@link NicTransport#acquireBell()}); waits nobody can wake poll with backoff. Calls (waits, done calls, posts)
 * check every {@link NicContext#failureCheckIntervalNs()} that the peers of connected VIs are alive.
 * Asynchronous errors are queued in the NIC's error ring and handed to the {@link AsyncErrorHandler} on the owner's
 * next call into the NIC.
 * <p>
 * <b>Note:</b> control calls are thread-safe; see {@link Vi} and {@link CompletionQueue} for their queues.
 * Every call that touches the shared area or mapped memory is counted while it runs, and {@link #close()} releases
 * them (unmaps, deletes files) only once the last such call has left, whichever thread that is, so a call racing
 * {@link #close()}, or an {@link AsyncErrorHandler} closing the NIC from inside a call, never touches released
 * memory; waits return when the NIC closes.
 */
public final class EngineNic implements Nic
{
    /** Longest detail of an asynchronous error; longer ones are cut. */
    public static final int MAX_ERROR_DETAIL_LENGTH = ErrorRing.MAX_DETAIL_LENGTH;

    private static final long CLOSE_GRACE_NS = 2_000_000_000L;

    final long spinNs;
    final long parkMinNs;
    final long parkMaxNs;
    final long sleepMaxNs;
    final int livenessPeriod;

    private final NicContext context;
    private final NicTransport transport;
    private final String address;
    private final NicArea area;
    private final NicAttributes attributes;
    private final long nicId;
    private final Object lock = new Object();
    private final PtagTable ptags;
    private final MemoryManager memory;
    private final EngineVi[] vis;
    private final EngineCq[] cqs;
    private final Connector connector;
    private final SelfPeer self;
    private final PeerDirectory peers = new PeerDirectory(this);
    private final Housekeeper housekeeper;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicBoolean released = new AtomicBoolean();
    private final AtomicLong sleeps = new AtomicLong();
    private volatile boolean closed;

    /**
     * Creates the NIC over its laid-out area, with the provider's transport.
     *
     * @param address           the NIC's address.
     * @param area              its shared area, open.
     * @param attributes        what it can do.
     * @param context           its settings, concluded.
     * @param defaultWaitSpinNs how long a wait spins (and makes progress, see {@link NicTransport#progress(boolean)})
     *                          before it parks, unless the context sets it.
     * @param transport         makes the provider's transport for the new NIC, last in the constructor.
     * @throws IllegalStateException if the context is not concluded.
     */
    @SuppressWarnings("this-escape") // the parts it hands itself to only keep the reference until close
    public EngineNic(
        final String address,
        final NicArea area,
        final NicAttributes attributes,
        final NicContext context,
        final long defaultWaitSpinNs,
        final Function<EngineNic, NicTransport> transport)
    {
        if (!context.isConcluded())
        {
            throw new IllegalStateException("the NIC context must be concluded: " + context);
        }
        this.context = context;
        this.spinNs = context.waitSpinNsOrDefault(defaultWaitSpinNs);
        this.parkMinNs = context.waitParkMinNs();
        this.parkMaxNs = context.waitParkMaxNs();
        this.sleepMaxNs = context.waitSleepMaxNs();
        this.livenessPeriod = context.postLivenessCheckPeriod();
        this.address = address;
        this.area = area;
        this.attributes = attributes;
        this.nicId = area.nicId();
        this.ptags = new PtagTable(nicId, address);
        this.vis = new EngineVi[area.geometry().maxVis()];
        this.cqs = new EngineCq[area.geometry().maxCqs()];
        this.self = new SelfPeer(this);
        this.housekeeper = new Housekeeper(this);
        this.transport = transport.apply(this);
        this.memory = new MemoryManager(this, area.table(), attributes.maxRegisteredBytes());
        final Connector own = this.transport.connector();
        this.connector = null != own ? own : new ConnectionManager(this);
    }

    /**
     * The provider's transport.
     *
     * @return the transport.
     */
    public NicTransport transport()
    {
        return transport;
    }

    /**
     * The NIC's shared area.
     *
     * @return the area.
     */
    public NicArea area()
    {
        return area;
    }

    /**
     * The NIC's identity.
     *
     * @return the id.
     */
    public long nicId()
    {
        return nicId;
    }

    /**
     * The bytes of one of this NIC's registrations; lock-free, for any thread.
     *
     * @param index      registration-table index.
     * @param generation the handle's generation.
     * @return the region's buffer, or null if no such registration is live.
     */
    public AtomicBuffer localRegionBuffer(final int index, final int generation)
    {
        return memory.regionBuffer(index, generation);
    }

    /**
     * After receive completions of one of this NIC's VIs were published, from a thread of this process: wakes the
     * thread waiting on the VI's receive queue and the one waiting on its receive completion queue, if they are
     * asleep (unpark, and the bell they sleep on). Issues a full fence first (see {@link WaitSlot}).
     *
     * @param viId the VI id.
     * @param cqId the VI's receive completion-queue id, or -1 if it has none.
     */
    public void wakeReceivers(final int viId, final int cqId)
    {
        VarHandle.fullFence();
        final EngineVi vi = viAt(viId);
        if (null != vi)
        {
            vi.recvQueue().slot.wakeArmed();
        }
        if (cqId >= 0 && cqId < cqs.length)
        {
            final EngineCq cq = cqs[cqId];
            if (null != cq)
            {
                cq.slot().wakeArmed();
            }
        }
    }

    /**
     * Queues an asynchronous error for the NIC's handler, which gets it on the owner's next call into the NIC.
     *
     * @param error  what happened.
     * @param viId   the VI concerned, or -1 for the NIC.
     * @param detail a sentence naming the values involved; cut at {@link #MAX_ERROR_DETAIL_LENGTH}.
     * @return false if the error ring was full and the error was lost.
     */
    public boolean reportError(final AsyncError error, final int viId, final String detail)
    {
        return area.errors().offer(error, viId, detail);
    }

    /**
     * How many waits on this NIC's queues went to sleep (past their spin phase, waiting to be woken): a statistic.
     *
     * @return the count since the NIC opened.
     */
    public long sleeps()
    {
        return sleeps.get();
    }

    /**
     * The peer at an address, reached once and cached while it stays open and alive.
     *
     * @param peerAddress the peer's address; this NIC's own address gives a loopback peer.
     * @return the peer.
     * @throws ViaException with {@link ViaError#NOT_REACHABLE} if no open NIC answers there.
     */
    public PeerNic peer(final String peerAddress)
    {
        if (address.equals(peerAddress))
        {
            return self;
        }
        return peers.peer(peerAddress);
    }

    @Override
    public String address()
    {
        return address;
    }

    @Override
    public NicContext context()
    {
        return context;
    }

    @Override
    public NicAttributes attributes()
    {
        return attributes;
    }

    @Override
    public ProtectionTag createPtag()
    {
        synchronized (lock)
        {
            checkOpen();
            return ptags.create();
        }
    }

    @Override
    public void destroyPtag(final ProtectionTag ptag)
    {
        synchronized (lock)
        {
            checkOpen();
            ptags.destroy(ptag);
        }
    }

    @Override
    public ByteBuffer allocateMemory(final int length)
    {
        synchronized (lock)
        {
            checkOpen();
            return memory.allocate(length);
        }
    }

    @Override
    public void freeMemory(final ByteBuffer buffer)
    {
        synchronized (lock)
        {
            checkOpen();
            memory.free(buffer);
        }
    }

    @Override
    public MemoryRegion registerMemory(final ByteBuffer buffer, final MemoryAttributes memoryAttributes)
    {
        synchronized (lock)
        {
            checkOpen();
            final int ptag = ptags.acquire(memoryAttributes.ptag());
            try
            {
                final EngineRegion region = memory.register(buffer, memoryAttributes, ptag);
                onRegistrationChanged(region.index());
                return region;
            }
            catch (final RuntimeException ex)
            {
                ptags.release(ptag);
                throw ex;
            }
        }
    }

    @Override
    public void deregisterMemory(final MemoryRegion region)
    {
        synchronized (lock)
        {
            checkOpen();
            final EngineRegion retired = memory.deregister(region);
            onRegistrationChanged(retired.index());
            ptags.release(retired.attributes().ptag().value());
        }
    }

    @Override
    public CompletionQueue createCq(final int capacity)
    {
        synchronized (lock)
        {
            checkOpen();
            if (capacity < 1 || capacity > attributes.maxCqEntries())
            {
                throw new IllegalArgumentException("completion queue capacity must be in [1, " +
                    attributes.maxCqEntries() + "]: capacity=" + capacity);
            }
            for (int id = 0; id < cqs.length; id++)
            {
                if (null == cqs[id])
                {
                    final EngineCq cq = new EngineCq(
                        this, id, new CqRing(area.buffer(), area.geometry(), id, context.producerStallTimeoutNs()),
                        capacity);
                    cqs[id] = cq;
                    return cq;
                }
            }
            throw new ViaException(ViaError.ERROR_RESOURCE, "NIC " + address + " has all its " + cqs.length +
                " completion queues in use");
        }
    }

    @Override
    public Vi createVi(
        final ViAttributes viAttributes, final CompletionQueue sendCq, final CompletionQueue recvCq)
    {
        synchronized (lock)
        {
            checkOpen();
            checkViAttributes(viAttributes);
            final EngineCq send = ownCq(sendCq);
            final EngineCq recv = ownCq(recvCq);
            for (int id = 0; id < vis.length; id++)
            {
                if (null == vis[id])
                {
                    final int ptag = ptags.acquire(viAttributes.ptag());
                    final EngineVi vi = new EngineVi(this, id, viAttributes, ptag, send, recv);
                    vis[id] = vi;
                    if (null != send)
                    {
                        send.addUser();
                    }
                    if (null != recv)
                    {
                        recv.addUser();
                    }
                    return vi;
                }
            }
            throw new ViaException(ViaError.ERROR_RESOURCE, "NIC " + address + " has all its " + vis.length +
                " VIs in use");
        }
    }

    @Override
    public ConnectRequest connectWait(final long discriminator, final long timeoutNs)
    {
        enterControl();
        try
        {
            onCall(0);
            return connector().connectWait(discriminator, timeoutNs);
        }
        finally
        {
            exitCall();
        }
    }

    @Override
    public void errorHandler(final AsyncErrorHandler handler)
    {
        housekeeper.handler(handler);
    }

    @Override
    public boolean isClosed()
    {
        return closed;
    }

    @Override
    public void close()
    {
        synchronized (lock)
        {
            if (closed)
            {
                return;
            }
            calls.incrementAndGet();
            closed = true;
        }
        try
        {
            closeQueues();
            area.markClosed();
            awaitCallers(housekeeper.isDispatchingOn(Thread.currentThread()) ? 2 : 1);
        }
        finally
        {
            exitCall();
        }
    }

    @Override
    public String toString()
    {
        return getClass().getSimpleName() + '{' + address + (closed ? ", closed}" : "}");
    }

    EngineVi viAt(final int viId)
    {
        return viId >= 0 && viId < vis.length ? vis[viId] : null;
    }

    /**
     * The connection of a VI of this NIC, for its provider.
     *
     * @param vi a VI.
     * @return its connection.
     * @throws IllegalArgumentException if it is not a live VI of this NIC.
     */
    public ViConnection connectionOf(final Vi vi)
    {
        return ownVi(vi).connection();
    }

    EngineVi ownVi(final Vi vi)
    {
        if (!(vi instanceof EngineVi) || ((EngineVi)vi).nic() != this || ((EngineVi)vi).isClosed())
        {
            throw new IllegalArgumentException("VI is not a live VI of " + address + ": " + vi);
        }
        return (EngineVi)vi;
    }

    Connector connector()
    {
        return connector;
    }

    /**
     * The connection a VI's record names when the VI never got one, from the engine's connection manager.
     */
    PeerVi connectionNamedByRecord(final ViConnection vi)
    {
        return connector instanceof ConnectionManager ?
            ((ConnectionManager)connector).connectionNamedByRecord(vi) : null;
    }

    void onRegistrationChanged(final int index)
    {
        transport.onRegistrationChanged(index);
    }

    void checkTransport()
    {
        transport.checkTransport();
    }

    PeerNic resolvePeer(final String peerAddress)
    {
        return transport.resolvePeer(peerAddress);
    }

    ByteBuffer mapMemory(final long allocationId, final int length)
    {
        return transport.mapMemory(context, allocationId, length);
    }

    void unmapMemory(final long allocationId, final ByteBuffer buffer)
    {
        transport.unmapMemory(allocationId, buffer);
    }

    boolean registersForeignMemory()
    {
        return transport.registersForeignMemory();
    }

    int progress(final boolean spinning)
    {
        return transport.progress(spinning);
    }

    boolean block(final long timeoutNs)
    {
        return transport.block(timeoutNs);
    }

    void onWaitEnd()
    {
        transport.onWaitEnd();
    }

    boolean wakesArmedWaiters()
    {
        return transport.wakesArmedWaiters();
    }

    Bell acquireBell()
    {
        return transport.acquireBell();
    }

    void releaseBell(final Bell bell)
    {
        transport.releaseBell(bell);
    }

    void onSleep()
    {
        sleeps.incrementAndGet();
    }

    PeerNic self()
    {
        return self;
    }

    /**
     * On entry to every post, done, wait and connection call: hands queued asynchronous errors to the handler and
     * checks for failed peers every failure-check interval, reading the clock on one call in 64 of a queue's calls
     * and on every control call. Costs two volatile loads when there is nothing to do.
     *
     * @param callCount the calling queue's count of its calls, or 0 for a control call.
     */
    void onCall(final int callCount)
    {
        housekeeper.onCall(callCount);
    }

    void housekeeping(final long nowNs)
    {
        housekeeper.doWork(nowNs);
    }

    /**
     * Enters a call that touches the shared area or mapped memory; pair with {@link #exitCall()} in a finally.
     *
     * @return false if the NIC is closed: the call must touch nothing (and must not call {@link #exitCall()}).
     */
    boolean enterCall()
    {
        calls.incrementAndGet();
        if (closed)
        {
            exitCall();
            return false;
        }
        return true;
    }

    /**
     * Enters a call like {@link #enterCall()}, throwing if the NIC is closed.
     */
    void enterControl()
    {
        if (!enterCall())
        {
            throw new IllegalStateException("NIC " + address + " is closed");
        }
    }

    /**
     * Leaves a call; the last call to leave a closed NIC releases its memory.
     */
    void exitCall()
    {
        if (0 == calls.decrementAndGet() && closed)
        {
            release();
        }
    }

    void destroyVi(final EngineVi vi)
    {
        synchronized (lock)
        {
            if (vis[vi.id()] != vi)
            {
                return;
            }
            vi.record().state(ViRecordLayout.STATE_FREE);
            vis[vi.id()] = null;
            if (null != vi.sendCqInternal())
            {
                vi.sendCqInternal().removeUser();
            }
            if (null != vi.recvCqInternal())
            {
                vi.recvCqInternal().removeUser();
            }
            ptags.release(vi.ptagValue());
        }
    }

    void destroyCq(final EngineCq cq)
    {
        synchronized (lock)
        {
            if (cq.isClosed())
            {
                return;
            }
            cq.markClosed();
        }
        cq.release();
        synchronized (lock)
        {
            if (cqs[cq.id()] == cq)
            {
                cqs[cq.id()] = null;
            }
        }
    }

    private void closeQueues()
    {
        for (final EngineVi vi : vis.clone())
        {
            if (null != vi)
            {
                vi.wakeWaiters();
                vi.destroy();
            }
        }
        synchronized (lock)
        {
            for (int id = 0; id < cqs.length; id++)
            {
                final EngineCq cq = cqs[id];
                if (null != cq)
                {
                    cq.wake();
                    cq.markClosed();
                    cqs[id] = null;
                }
            }
        }
    }

    /**
     * Gives the calls still inside (waits end within a park once the NIC is closed) a grace period to leave, until
     * only {@code own} remain: the closing call, and the call that ran the error handler closing the NIC. Calls
     * still inside afterwards keep the memory mapped; the last of them releases it.
     */
    private void awaitCallers(final int own)
    {
        final long deadlineNs = System.nanoTime() + CLOSE_GRACE_NS;
        while (calls.get() > own && System.nanoTime() - deadlineNs < 0)
        {
            LockSupport.parkNanos(100_000L);
        }
    }

    private void release()
    {
        if (!released.compareAndSet(false, true))
        {
            return;
        }
        try
        {
            synchronized (lock)
            {
                memory.closeAll();
            }
            peers.close();
        }
        finally
        {
            transport.close();
        }
    }

    private void checkViAttributes(final ViAttributes viAttributes)
    {
        if (null == viAttributes)
        {
            throw new IllegalArgumentException("VI attributes are null");
        }
        final ReliabilityLevel level = viAttributes.reliabilityLevel();
        if (null == level || !attributes.reliabilityLevels().contains(level))
        {
            throw new IllegalArgumentException("reliability level not supported by " + address + ": " + level);
        }
        if (!level.allowsRdmaRead() && viAttributes.enableRdmaRead())
        {
            throw new IllegalArgumentException(
                "RDMA Read is not available at the " + level + " level: disable enableRdmaRead");
        }
        final int maxTransfer = viAttributes.maxTransferSize();
        if (maxTransfer < 1 || maxTransfer > attributes.maxTransferSize())
        {
            throw new IllegalArgumentException("maxTransferSize must be in [1, " + attributes.maxTransferSize() +
                "]: maxTransferSize=" + maxTransfer);
        }
        if (null == viAttributes.ptag())
        {
            throw new IllegalArgumentException("VI attributes have no protection tag");
        }
    }

    private EngineCq ownCq(final CompletionQueue cq)
    {
        if (null == cq)
        {
            return null;
        }
        if (!(cq instanceof EngineCq) || ((EngineCq)cq).nic() != this || ((EngineCq)cq).isClosed())
        {
            throw new IllegalArgumentException("completion queue is not a live queue of " + address + ": " + cq);
        }
        return (EngineCq)cq;
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("NIC " + address + " is closed");
        }
    }
}
