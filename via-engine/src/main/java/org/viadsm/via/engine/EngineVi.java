package org.viadsm.via.engine;

import java.util.concurrent.atomic.AtomicLong;

import org.viadsm.via.AsyncError;
import org.viadsm.via.CompletionQueue;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;

import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECTED;
import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECT_PENDING;
import static org.viadsm.via.engine.ViRecordLayout.STATE_ERROR;
import static org.viadsm.via.engine.ViRecordLayout.STATE_IDLE;

/**
 * A VI of an {@link EngineNic}: its record and receive ring live in the NIC's shared area, its descriptors in two
 * FIFOs in posting order. Sends execute inline in {@link #postSend(Descriptor)} when the peer's area is reachable,
 * or go to the connection's {@link ViTransport}; receives complete when a peer's Send claims their ring entry.
 * <p>
 * The public methods beyond {@link Vi} are the provider side, for transports and connectors.
 */
public final class EngineVi implements Vi
{
    private final EngineNic nic;
    private final int id;
    private final ViAttributes attributes;
    private final ReliabilityLevel reliability;
    private final int ptagValue;
    private final ViRecord record;
    private final RecvRing ring;
    private final EngineCq sendCq;
    private final EngineCq recvCq;
    private final DescriptorFifo sendFifo;
    private final Initiator initiator;
    private final Idler sendIdler;
    private final DescriptorFifo recvFifo;
    private final AtomicLong recvTaken;
    private final WaitSlot recvSlot;
    private final WaitSlot sendSlot = new WaitSlot();
    private final Idler recvIdler;
    // the count of calls into this VI's queues, for the clock reads of housekeeping; plain: a lost increment only
    // moves a clock read
    private int calls;
    private volatile Connection connection;
    private volatile ViTransport transport;
    private volatile String remoteAddress;
    private volatile ViAttributes remoteAttributes;
    private volatile boolean closed;
    private int connectSequence;
    ConnectionManager.PeerRequest peerRequest;

    EngineVi(
        final EngineNic nic,
        final int id,
        final ViAttributes attributes,
        final int ptagValue,
        final EngineCq sendCq,
        final EngineCq recvCq)
    {
        this.nic = nic;
        this.id = id;
        this.attributes = new ViAttributes(attributes);
        this.reliability = attributes.reliabilityLevel();
        this.ptagValue = ptagValue;
        this.record = nic.area().viRecord(id);
        this.ring = nic.area().recvRing(id);
        this.recvSlot = new WaitSlot(nic.area().buffer(), record.recvSleeperOffset());
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        final int depth = nic.attributes().maxDescriptorsPerQueue();
        record.initialize(ptagValue, reliability.vipValue(),
            RegistrationLayout.flags(attributes.enableRdmaWrite(), attributes.enableRdmaRead()),
            attributes.maxTransferSize(), null == sendCq ? -1 : sendCq.id(), null == recvCq ? -1 : recvCq.id());
        this.sendFifo = new DescriptorFifo(depth, 0);
        this.recvFifo = new DescriptorFifo(depth, record.recvProducerIndex());
        this.recvTaken = new AtomicLong(record.recvProducerIndex());
        this.sendIdler = new Idler(nic);
        this.recvIdler = new Idler(nic);
        this.initiator = new Initiator(nic, this);
        this.connectSequence = ViRecordLayout.connectSequence(record.connectWord());
    }

    @Override
    public int id()
    {
        return id;
    }

    @Override
    public Nic nic()
    {
        return nic;
    }

    @Override
    public ViAttributes attributes()
    {
        return new ViAttributes(attributes);
    }

    @Override
    public ViState state()
    {
        enter();
        try
        {
            return ViRecordLayout.viState(record.state());
        }
        finally
        {
            nic.exitCall();
        }
    }

    @Override
    public ViAttributes remoteAttributes()
    {
        final ViAttributes remote = remoteAttributes;
        return null == remote ? null : new ViAttributes(remote);
    }

    @Override
    public String remoteAddress()
    {
        return remoteAddress;
    }

    @Override
    public void connectRequest(final String remoteAddress, final long discriminator, final long timeoutNs)
    {
        enter();
        try
        {
            nic.connector().connectRequest(this, remoteAddress, discriminator, timeoutNs);
        }
        finally
        {
            nic.exitCall();
        }
    }

    @Override
    public void connectPeerRequest(final String remoteAddress, final long discriminator, final long timeoutNs)
    {
        enter();
        try
        {
            nic.connector().connectPeerRequest(this, remoteAddress, discriminator, timeoutNs);
        }
        finally
        {
            nic.exitCall();
        }
    }

    @Override
    public boolean connectPeerDone()
    {
        enter();
        try
        {
            return nic.connector().connectPeerDone(this);
        }
        finally
        {
            nic.exitCall();
        }
    }

    @Override
    public void connectPeerWait(final long timeoutNs)
    {
        enter();
        try
        {
            nic.connector().connectPeerWait(this, timeoutNs);
        }
        finally
        {
            nic.exitCall();
        }
    }

    @Override
    public void disconnect()
    {
        if (closed || !nic.enterCall())
        {
            return;
        }
        try
        {
            nic.onCall(0);
            tearDown();
        }
        finally
        {
            nic.exitCall();
        }
    }

    private void tearDown()
    {
        int state = record.state();
        if (STATE_CONNECT_PENDING == state)
        {
            state = nic.connector().abandon(this);
        }
        if (STATE_CONNECTED == state || STATE_ERROR == state)
        {
            record.compareAndSetState(STATE_CONNECTED, STATE_ERROR);
            final String detail = "VI " + id + " of " + nic.address() + " disconnected";
            final Connection current =
                null != connection ? connection : nic.connectionNamedByRecord(this);
            if (null != current)
            {
                breakPeer(current, AsyncError.CONNECTION_LOST, detail);
            }
            final ViTransport link = transport;
            transport = null;
            if (null != link)
            {
                link.disconnect(detail);
            }
            RecvCompletion.flush(nic.self(), record, ring);
            connection = null;
            record.state(STATE_IDLE);
        }
    }

    @Override
    public void postSend(final Descriptor descriptor)
    {
        enter();
        try
        {
            send(descriptor);
        }
        finally
        {
            nic.exitCall();
        }
    }

    private void send(final Descriptor descriptor)
    {
        final int state = record.state();
        if (STATE_IDLE == state || STATE_CONNECT_PENDING == state)
        {
            throw new IllegalStateException("VI " + id + " of " + nic.address() + " is not connected: " +
                ViRecordLayout.viState(state));
        }
        if (sendFifo.isFull())
        {
            throw new IllegalStateException("send queue of VI " + id + " is full: " +
                nic.attributes().maxDescriptorsPerQueue() + " descriptors not yet taken back");
        }
        descriptor.onPost();
        sendFifo.add(descriptor);
        final ViTransport link = transport;
        if (null != link)
        {
            link.post(descriptor);
        }
        else
        {
            initiator.execute(descriptor);
        }
    }

    @Override
    public Descriptor sendDone()
    {
        enter();
        try
        {
            final Descriptor descriptor = takeSend();
            return null != descriptor || sendFifo.isEmpty() || 0 == nic.progress(false) ? descriptor : takeSend();
        }
        finally
        {
            nic.exitCall();
        }
    }

    @Override
    public Descriptor sendWait(final long timeoutNs)
    {
        checkNoCq(sendCq, "send");
        enter();
        try
        {
            return await(false, timeoutNs);
        }
        finally
        {
            nic.exitCall();
        }
    }

    @Override
    public void postRecv(final Descriptor descriptor)
    {
        enter();
        try
        {
            receive(descriptor);
        }
        finally
        {
            nic.exitCall();
        }
    }

    private void receive(final Descriptor descriptor)
    {
        final int count = descriptor.segmentCount();
        if (count > descriptor.maxSegments())
        {
            throw new IllegalArgumentException("receive descriptor says it has " + count + " data segments but holds " +
                descriptor.maxSegments());
        }
        if (recvFifo.isFull())
        {
            throw new IllegalStateException("receive queue of VI " + id + " is full: " +
                nic.attributes().maxDescriptorsPerQueue() + " descriptors not yet taken back");
        }
        descriptor.onPost();
        final long index = recvFifo.tailIndex();
        recvFifo.add(descriptor);
        ring.post(index, descriptor);
        if (STATE_ERROR == record.state())
        {
            RecvCompletion.flush(nic.self(), record, ring);
        }
    }

    @Override
    public Descriptor recvDone()
    {
        enter();
        try
        {
            final Descriptor descriptor = takeRecv();
            return null != descriptor || recvFifo.isEmpty() || 0 == nic.progress(false) ? descriptor : takeRecv();
        }
        finally
        {
            nic.exitCall();
        }
    }

    @Override
    public Descriptor recvWait(final long timeoutNs)
    {
        checkNoCq(recvCq, "receive");
        enter();
        try
        {
            return await(true, timeoutNs);
        }
        finally
        {
            nic.exitCall();
        }
    }

    @Override
    public CompletionQueue sendCq()
    {
        return sendCq;
    }

    @Override
    public CompletionQueue recvCq()
    {
        return recvCq;
    }

    @Override
    public void close()
    {
        if (closed || !nic.enterCall())
        {
            return;
        }
        try
        {
            destroy();
        }
        finally
        {
            nic.exitCall();
        }
    }

    /**
     * Destroys the VI from inside a counted call: its own, or the NIC's close.
     */
    void destroy()
    {
        if (closed)
        {
            return;
        }
        tearDown();
        nic.destroyVi(this);
        closed = true;
        sendIdler.cancel();
        recvIdler.cancel();
        returnAll(sendFifo, DescriptorStatus.OP_SEND);
        returnAll(recvFifo, DescriptorStatus.OP_RECEIVE);
    }

    @Override
    public String toString()
    {
        String state = "DESTROYED";
        if (!closed && nic.enterCall())
        {
            try
            {
                final int raw = record.state();
                state = ViRecordLayout.STATE_FREE == raw ? "FREE" : ViRecordLayout.viState(raw).name();
            }
            finally
            {
                nic.exitCall();
            }
        }
        return "Vi{id=" + id + ", nic=" + nic.address() + ", state=" + state + '}';
    }

    /**
     * Provider side: the VI's record in the NIC's shared area.
     *
     * @return the record.
     */
    public ViRecord record()
    {
        return record;
    }

    /**
     * Provider side: the VI's receive ring.
     *
     * @return the ring.
     */
    public RecvRing ring()
    {
        return ring;
    }

    /**
     * Provider side: the VI's reliability level.
     *
     * @return the level.
     */
    public ReliabilityLevel reliability()
    {
        return reliability;
    }

    /**
     * Provider side: the transport the VI is connected through, if its provider uses one.
     *
     * @return the transport, or null.
     */
    public ViTransport transport()
    {
        return transport;
    }

    int ptagValue()
    {
        return ptagValue;
    }

    EngineCq sendCqInternal()
    {
        return sendCq;
    }

    EngineCq recvCqInternal()
    {
        return recvCq;
    }

    Connection connection()
    {
        return connection;
    }

    boolean isClosed()
    {
        return closed;
    }

    /**
     * Provider side: a fresh sequence number for the VI's next connection request; called by the thread making it.
     *
     * @return the sequence number.
     */
    public int nextConnectSequence()
    {
        connectSequence++;
        return connectSequence;
    }

    void onConnected(final PeerNic peer, final int peerViId, final String address)
    {
        final Connection created = new Connection(peer, peerViId);
        remoteAttributes = created.remoteAttributes();
        remoteAddress = address;
        connection = created;
    }

    /**
     * Provider side: gives up the VI's pending connection request, as a disconnect during it does. Settles the
     * connect word as abandoned, unless an answer won the race: then waits (bounded) for the accepted connection
     * to be established. Either way the VI ends up idle unless it got connected.
     *
     * @return the state to tear down from: idle if the request was given up, else the state it reached.
     */
    public int abandonConnect()
    {
        final int sequence = ViRecordLayout.connectSequence(record.connectWord());
        if (!record.settle(sequence, 0, ViRecordLayout.RESULT_ABANDONED) &&
            ViRecordLayout.RESULT_ACCEPTED == ViRecordLayout.connectResult(record.connectWord()))
        {
            final Idler idler = new Idler(nic);
            idler.start(Connector.ESTABLISH_TIMEOUT_NS);
            while (STATE_CONNECT_PENDING == record.state() && idler.idle(null))
            {
                Thread.onSpinWait();
            }
        }
        record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
        return record.state();
    }

    /**
     * Provider side: the VI is connected through {@code link}; call before the record becomes connected.
     *
     * @param link             the transport.
     * @param address          the peer NIC's address.
     * @param remoteAttributes the peer VI's attributes.
     */
    public void onConnected(final ViTransport link, final String address, final ViAttributes remoteAttributes)
    {
        this.remoteAttributes = new ViAttributes(remoteAttributes);
        this.remoteAddress = address;
        this.transport = link;
    }

    /**
     * Provider side: the transport broke (the peer disconnected or went away, or an error broke the connection).
     * If {@code link} is still the VI's transport and the VI was connected, the VI enters the error state,
     * {@code error} is queued for the handler, and the receive queue is flushed; the transport flushes its own
     * send descriptors.
     *
     * @param link   the transport reporting.
     * @param error  the error to report, or null for none.
     * @param detail what happened.
     * @return true if this call broke the connection.
     */
    public boolean onTransportBroken(final ViTransport link, final AsyncError error, final String detail)
    {
        if (transport != link || !record.compareAndSetState(STATE_CONNECTED, STATE_ERROR))
        {
            return false;
        }
        if (null != error)
        {
            nic.area().errors().offer(error, id, detail);
        }
        RecvCompletion.flush(nic.self(), record, ring);
        RecvCompletion.wake(nic.self(), record);
        return true;
    }

    WaitSlot recvSlot()
    {
        return recvSlot;
    }

    void wakeWaiters()
    {
        recvSlot.wake();
        sendSlot.wake();
    }

    /**
     * Provider side: completes a send-queue descriptor (they complete in posting order), announces it on the send
     * completion queue if there is one, and wakes a waiter.
     *
     * @param descriptor the oldest descriptor not yet completed.
     * @param status     status bits.
     * @param length     bytes transferred.
     */
    public void completeSend(final Descriptor descriptor, final int status, final int length)
    {
        descriptor.complete(status, length);
        if (null != sendCq)
        {
            CqEntries.post(nic.self(), sendCq.id(), id, false, record.incarnation(), 1);
            sendCq.wake();
        }
        sendSlot.wake();
    }

    /**
     * Breaks the connection after an error: both VIs enter ERROR, both receive queues are flushed, and
     * {@code error} (or CONNECTION_LOST for the peer when null) is queued on each NIC.
     */
    void breakConnection(final AsyncError error, final String detail)
    {
        record.compareAndSetState(STATE_CONNECTED, STATE_ERROR);
        if (null != error)
        {
            nic.area().errors().offer(error, id, detail);
        }
        RecvCompletion.flush(nic.self(), record, ring);
        final Connection current = connection;
        if (null != current)
        {
            breakPeer(current, null == error ? AsyncError.CONNECTION_LOST : error, detail);
        }
    }

    /**
     * The peer went away without breaking the connection (its process died or its NIC closed): ERROR, flush, and
     * CONNECTION_LOST queued on this NIC.
     */
    void onPeerLost(final String detail)
    {
        if (record.compareAndSetState(STATE_CONNECTED, STATE_ERROR))
        {
            nic.area().errors().offer(AsyncError.CONNECTION_LOST, id, detail);
            RecvCompletion.flush(nic.self(), record, ring);
            reapAbandoned();
            RecvCompletion.wake(nic.self(), record);
        }
    }

    /**
     * Completes, as flushed, the receives a peer claimed but never completed, once that peer's process is dead; a
     * live peer completes what it claimed.
     */
    void reapAbandoned()
    {
        final Connection current = connection;
        if (null != current && record.recvConsumerIndex() > recvTaken.get() && current.peer.hasDied() &&
            RecvCompletion.flushAbandoned(nic.self(), record, ring, recvTaken.get()) > 0)
        {
            RecvCompletion.wake(nic.self(), record);
        }
    }

    private void breakPeer(final Connection current, final AsyncError error, final String detail)
    {
        final ViRecord peerRecord = current.peerRecord;
        if (peerRecord.isConnectedTo(nic.nicId(), id) &&
            peerRecord.compareAndSetState(STATE_CONNECTED, STATE_ERROR))
        {
            current.peer.area().errors().offer(error, current.peerViId, detail);
            RecvCompletion.flush(current.peer, peerRecord, current.peerRing);
            RecvCompletion.wake(current.peer, peerRecord);
        }
    }

    private Descriptor await(final boolean recv, final long timeoutNs)
    {
        Descriptor descriptor = recv ? takeRecv() : takeSend();
        if (null != descriptor || (recv ? recvFifo : sendFifo).isEmpty() || nic.isClosed())
        {
            return descriptor;
        }
        final Idler idler = recv ? recvIdler : sendIdler;
        idler.start(timeoutNs);
        do
        {
            descriptor = recv ? takeRecv() : takeSend();
            if (null != descriptor)
            {
                idler.finish();
                nic.onCall(++calls);
                return descriptor;
            }
        }
        while (idler.idle(recv ? recvSlot : sendSlot));
        return null;
    }

    private Descriptor takeSend()
    {
        final Descriptor descriptor = sendFifo.peek();
        if (null == descriptor || !descriptor.isDone())
        {
            return null;
        }
        sendFifo.poll();
        descriptor.onReturn();
        return descriptor;
    }

    private Descriptor takeRecv()
    {
        final Descriptor descriptor = recvFifo.peek();
        if (null == descriptor)
        {
            return null;
        }
        final long index = recvFifo.headIndex();
        int status = ring.status(index);
        if (0 == status)
        {
            if (STATE_ERROR != record.state())
            {
                return null;
            }
            RecvCompletion.flush(nic.self(), record, ring);
            status = ring.status(index);
            if (0 == status)
            {
                return null;
            }
        }
        recvFifo.poll();
        if ((status & DescriptorStatus.IMMEDIATE) != 0)
        {
            descriptor.complete(status, ring.length(index), ring.immediate(index));
        }
        else
        {
            descriptor.complete(status, ring.length(index));
        }
        recvTaken.lazySet(index + 1);
        descriptor.onReturn();
        return descriptor;
    }

    private void returnAll(final DescriptorFifo fifo, final int opStatus)
    {
        Descriptor descriptor;
        while (null != (descriptor = fifo.poll()))
        {
            if (!descriptor.isDone())
            {
                descriptor.complete(DescriptorStatus.DESC_FLUSHED_ERROR | opStatus, 0);
            }
            descriptor.onReturn();
        }
    }

    private void checkNoCq(final EngineCq cq, final String queue)
    {
        if (null != cq)
        {
            throw new IllegalStateException("the " + queue + " queue of VI " + id + " is attached to completion " +
                "queue " + cq.id() + ": take completions from the queue, then use " + queue + "Done()");
        }
    }

    /**
     * Enters a call of this VI: checks it is not destroyed, counts the call on the NIC and hands queued errors to
     * the handler. The caller leaves with {@code nic.exitCall()} in a finally.
     */
    private void enter()
    {
        checkOpen();
        nic.enterControl();
        try
        {
            nic.onCall(++calls);
        }
        catch (final Throwable ex)
        {
            nic.exitCall();
            throw ex;
        }
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("VI " + id + " of " + nic.address() + " is destroyed");
        }
    }
}
