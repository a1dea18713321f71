package org.viadsm.via.engine;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.via.AsyncError;
import org.viadsm.via.AsyncErrorHandler;
import org.viadsm.via.CompletionQueue;
import org.viadsm.via.ConnectRequest;
import org.viadsm.via.Nic;
import org.viadsm.via.NicAttributes;
import org.viadsm.via.NicContext;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
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
 * check every {@link org.viadsm.via.WaitSettings#failureCheckIntervalNs()} that the peers of connected VIs are alive.
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
    private final QueueTable queues;
    private final Connector connector;
    private final SelfPeer self;
    private final PeerDirectory peers = new PeerDirectory(this);
    private final Housekeeper housekeeper;
    private final CallGate gate;
    private final AtomicLong sleeps = new AtomicLong();

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
        this.spinNs = context.waits().spinNsOrDefault(defaultWaitSpinNs);
        this.parkMinNs = context.waits().parkMinNs();
        this.parkMaxNs = context.waits().parkMaxNs();
        this.sleepMaxNs = context.waits().sleepMaxNs();
        this.livenessPeriod = context.waits().postLivenessCheckPeriod();
        this.address = address;
        this.area = area;
        this.attributes = attributes;
        this.nicId = area.nicId();
        this.ptags = new PtagTable(nicId, address);
        this.queues = new QueueTable(this, lock, ptags, area.geometry().maxVis(), area.geometry().maxCqs());
        this.gate = new CallGate(address, area.geometry().maxVis(), area.geometry().maxCqs(), this::release);
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
     * The NIC's registrations, for tests of the engine.
     *
     * @return the memory manager.
     */
    MemoryManager memory()
    {
        return memory;
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
        queues.wakeReceivers(viId, cqId);
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
     * @throws org.viadsm.via.ViaException with {@link org.viadsm.via.ViaError#NOT_REACHABLE} if no open NIC answers
     *                                     there.
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
                transport.onRegistrationChanged(region.index());
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
            transport.onRegistrationChanged(retired.index());
            ptags.release(retired.attributes().ptag().value());
        }
    }

    @Override
    public CompletionQueue createCq(final int capacity)
    {
        synchronized (lock)
        {
            checkOpen();
            return queues.createCq(capacity);
        }
    }

    @Override
    public Vi createVi(
        final ViAttributes viAttributes, final CompletionQueue sendCq, final CompletionQueue recvCq)
    {
        synchronized (lock)
        {
            checkOpen();
            return queues.createVi(viAttributes, sendCq, recvCq);
        }
    }

    @Override
    public ConnectRequest connectWait(final long discriminator, final long timeoutNs)
    {
        enterControl();
        try
        {
            housekeeper.onCall(0);
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
        return gate.isClosed();
    }

    @Override
    public void close()
    {
        synchronized (lock)
        {
            if (!enterCall())
            {
                return;
            }
            gate.close();
        }
        try
        {
            queues.closeAll();
            area.markClosed();
            gate.awaitOthers(housekeeper.isDispatchingOn(Thread.currentThread()) ? 2 : 1, CLOSE_GRACE_NS);
        }
        finally
        {
            exitCall();
        }
    }

    @Override
    public String toString()
    {
        return "EngineNic{" + address + (isClosed() ? ", closed}" : "}");
    }

    QueueTable queues()
    {
        return queues;
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
        return queues.ownVi(vi).connection();
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

    void onSleep()
    {
        sleeps.incrementAndGet();
    }

    PeerNic self()
    {
        return self;
    }

    /**
     * The NIC's housekeeping, which every post, done, wait and connection call does on entry
     * ({@link Housekeeper#onCall(int)}).
     */
    Housekeeper housekeeper()
    {
        return housekeeper;
    }

    CallGate gate()
    {
        return gate;
    }

    /**
     * Enters a control call that touches the shared area or mapped memory; pair with {@link #exitCall()} in a
     * finally.
     *
     * @return false if the NIC is closed: the call must touch nothing (and must not call {@link #exitCall()}).
     */
    boolean enterCall()
    {
        return gate.tryEnter(gate.control());
    }

    /**
     * Enters a control call like {@link #enterCall()}, throwing if the NIC is closed.
     */
    void enterControl()
    {
        gate.enter(gate.control());
    }

    /**
     * Leaves a control call; the last call to leave a closed NIC releases its memory.
     */
    void exitCall()
    {
        gate.exit(gate.control());
    }

    /**
     * Releases the NIC's memory and the transport, once, when the last call has left the closed NIC.
     */
    private void release()
    {
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

    private void checkOpen()
    {
        if (isClosed())
        {
            throw new IllegalStateException("NIC " + address + " is closed");
        }
    }
}
