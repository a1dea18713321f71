package org.viadsm.via.engine;

import org.viadsm.via.AsyncError;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;

import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECTED;
import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECT_PENDING;
import static org.viadsm.via.engine.ViRecordLayout.STATE_ERROR;
import static org.viadsm.via.engine.ViRecordLayout.STATE_IDLE;

/**
 * The connection state machine of one VI, and the provider's handle on the VI: the state and connect word live in
 * the VI's record in the NIC's shared area, so that a peer (or the peer's provider) can settle a request and
 * establish the connection; the link to the peer is either the peer VI's record and ring ({@link PeerVi}, for peers
 * whose area this NIC reaches) or a {@link ViTransport}.
 * <pre>
 *   IDLE --beginConnect--&gt; CONNECT_PENDING --settle(accepted), establish--&gt; CONNECTED
 *     ^                         |  settle(rejected, no match, abandoned)        |  an error, the peer lost
 *     +-------------------------+                                              v
 *     +-------------------------- disconnect (peer broken, receives flushed) - ERROR
 * </pre>
 * The requester's connect word carries a fresh sequence number per request, and whoever settles it first (the
 * answering side, or the requester giving up) decides the request's outcome.
 * <p>
 * <b>Note:</b> the methods a provider calls (public) may be called by any thread; the VI's own calls are
 * serialized by the NIC's connector.
 */
public final class ViConnection
{
    /** Connect-word outcome: the answering VI accepted. */
    public static final int CONNECT_ACCEPTED = ViRecordLayout.RESULT_ACCEPTED;
    /** Connect-word outcome: the answering side refused. */
    public static final int CONNECT_REJECTED = ViRecordLayout.RESULT_REJECTED;
    /** Connect-word outcome: the VIs' reliability levels differ. */
    public static final int CONNECT_NO_MATCH = ViRecordLayout.RESULT_NO_MATCH;

    private final EngineNic nic;
    private final EngineVi vi;
    private final int id;
    private final ViRecord record;
    private final RecvRing ring;
    private final ReliabilityLevel reliability;
    private volatile PeerVi peerVi;
    private volatile ViTransport transport;
    private volatile String remoteAddress;
    private volatile ViAttributes remoteAttributes;
    private int connectSequence;
    AreaConnectAttempt areaAttempt;

    ViConnection(final EngineNic nic, final EngineVi vi, final ViRecord record, final RecvRing ring)
    {
        this.nic = nic;
        this.vi = vi;
        this.id = vi.id();
        this.record = record;
        this.ring = ring;
        this.reliability = vi.reliabilityLevel();
        this.connectSequence = ViRecordLayout.connectSequence(record.connectWord());
    }

    /**
     * The VI's id in its NIC.
     *
     * @return the id.
     */
    public int id()
    {
        return id;
    }

    /**
     * The VI's NIC.
     *
     * @return the NIC.
     */
    public EngineNic nic()
    {
        return nic;
    }

    /**
     * The VI's reliability level.
     *
     * @return the level.
     */
    public ReliabilityLevel reliability()
    {
        return reliability;
    }

    /**
     * The VI's largest transfer, as created.
     *
     * @return bytes.
     */
    public int maxTransfer()
    {
        return record.maxTransfer();
    }

    /**
     * The VI's protection tag, as a peer reads it.
     *
     * @return the tag's value.
     */
    public int ptag()
    {
        return record.ptag();
    }

    /**
     * The VI's RDMA enable bits, as a peer reads them.
     *
     * @return bits of {@link RegistrationLayout}.
     */
    public int flags()
    {
        return record.flags();
    }

    /**
     * The VI's state now.
     *
     * @return the state; {@link ViState#IDLE} once the VI is destroyed.
     */
    public ViState state()
    {
        final int state = record.state();
        return ViRecordLayout.STATE_FREE == state ? ViState.IDLE : ViRecordLayout.viState(state);
    }

    /**
     * Whether the VI is connected now.
     *
     * @return true while connected.
     */
    public boolean isConnected()
    {
        return STATE_CONNECTED == record.state();
    }

    /**
     * Whether the VI waits for a connection request to be settled or established.
     *
     * @return true while connect-pending.
     */
    public boolean isConnectPending()
    {
        return record.isConnectPending();
    }

    /**
     * Whether the VI's connect word still shows request {@code sequence} unanswered.
     *
     * @param sequence the request's sequence number.
     * @return true while pending.
     */
    public boolean isPending(final int sequence)
    {
        final long word = record.connectWord();
        return ViRecordLayout.RESULT_PENDING == ViRecordLayout.connectResult(word) &&
            ViRecordLayout.connectSequence(word) == sequence;
    }

    /**
     * Settles request {@code sequence} of the VI once: the first to settle decides.
     *
     * @param sequence the request's sequence number.
     * @param peerViId the answering VI, for {@link #CONNECT_ACCEPTED}.
     * @param result   {@link #CONNECT_ACCEPTED}, {@link #CONNECT_REJECTED} or {@link #CONNECT_NO_MATCH}.
     * @return true if this call settled it.
     */
    public boolean settle(final int sequence, final int peerViId, final int result)
    {
        return record.settle(sequence, peerViId, result);
    }

    /**
     * Makes the connect-pending VI connected to a peer VI.
     *
     * @param peerNicId   the peer NIC's id.
     * @param peerViId    the peer VI.
     * @param maxTransfer the agreed largest transfer.
     * @return false if the VI was no longer connect-pending.
     */
    public boolean establish(final long peerNicId, final int peerViId, final int maxTransfer)
    {
        return record.establish(STATE_CONNECT_PENDING, peerNicId, peerViId, maxTransfer);
    }

    /**
     * Ends a request that did not connect: the connect-pending VI becomes idle again.
     */
    public void backToIdle()
    {
        record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
    }

    /**
     * Starts a request: a fresh sequence number in the connect word, and the VI connect-pending.
     *
     * @return the request's sequence number.
     * @throws IllegalStateException if the VI is not idle.
     */
    public int beginConnect()
    {
        final int sequence = ++connectSequence;
        if (!record.beginConnect(sequence))
        {
            throw new IllegalStateException("VI " + id + " is not idle: " + ViRecordLayout.viState(record.state()));
        }
        return sequence;
    }

    /**
     * The outcome of the current request once settled.
     *
     * @return the connect word: {@link #connectResult(long)} and {@link #connectPeerVi(long)} read it.
     */
    public long connectWord()
    {
        return record.connectWord();
    }

    /**
     * The outcome in a connect word.
     *
     * @param word a connect word.
     * @return {@link #CONNECT_ACCEPTED}, {@link #CONNECT_REJECTED}, {@link #CONNECT_NO_MATCH}, or another value
     *         for pending or abandoned.
     */
    public static int connectResult(final long word)
    {
        return ViRecordLayout.connectResult(word);
    }

    /**
     * The answering VI in an accepted connect word.
     *
     * @param word a connect word.
     * @return the peer VI id.
     */
    public static int connectPeerVi(final long word)
    {
        return ViRecordLayout.connectPeerVi(word);
    }

    /**
     * Gives up the VI's pending connection request, as a disconnect during it does. Settles the connect word as
     * abandoned, unless an answer won the race: then waits (bounded) for the accepted connection to be established.
     * Either way the VI ends up idle unless it got connected.
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
            while (STATE_CONNECT_PENDING == record.state() && idler.idle())
            {
                Thread.onSpinWait();
            }
        }
        record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
        return record.state();
    }

    /**
     * The VI is connected through {@code link}; call before the VI becomes connected.
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
     * The transport broke (the peer disconnected or went away, or an error broke the connection). If {@code link} is
     * still the VI's transport and the VI was connected, the VI enters the error state, {@code error} is queued for
     * the handler, and the receive queue is flushed; the transport flushes its own send descriptors.
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

    /**
     * Completes a send-queue descriptor the transport took (they complete in posting order), announces it on the
     * send completion queue if there is one, and wakes a waiter.
     *
     * @param descriptor the oldest descriptor not yet completed.
     * @param status     status bits.
     * @param length     bytes transferred.
     */
    public void completeSend(final Descriptor descriptor, final int status, final int length)
    {
        vi.sendQueue().complete(descriptor, status, length);
    }

    /**
     * The target side of a peer's operations on this VI, as the provider performs them on the peer's behalf.
     *
     * @return a new target access to this VI on its own NIC; keep it.
     */
    public TargetAccess newTargetAccess()
    {
        return new TargetAccess(nic.self(), record, ring);
    }

    /**
     * The peer NIC's address once connected.
     *
     * @return the address, or null.
     */
    public String remoteAddress()
    {
        return remoteAddress;
    }

    /**
     * The peer VI's attributes once connected.
     *
     * @return a copy, or null.
     */
    ViAttributes remoteAttributes()
    {
        final ViAttributes remote = remoteAttributes;
        return null == remote ? null : new ViAttributes(remote);
    }

    /**
     * The transport the VI is connected through, if its provider uses one.
     *
     * @return the transport, or null.
     */
    ViTransport transport()
    {
        return transport;
    }

    ViRecord record()
    {
        return record;
    }

    RecvRing ring()
    {
        return ring;
    }

    PeerVi peerVi()
    {
        return peerVi;
    }

    void onConnected(final PeerNic peer, final int peerViId, final String address)
    {
        final PeerVi created = new PeerVi(peer, peerViId);
        remoteAttributes = created.remoteAttributes();
        remoteAddress = address;
        peerVi = created;
    }

    /**
     * Disconnects: gives up a pending request, or breaks the connection at both ends (the peer VI enters ERROR and
     * hears CONNECTION_LOST), flushes the receives, and leaves the VI idle.
     */
    void tearDown()
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
            final PeerVi current = null != peerVi ? peerVi : nic.connectionNamedByRecord(this);
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
            peerVi = null;
            record.state(STATE_IDLE);
        }
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
        final PeerVi current = peerVi;
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
        final PeerVi current = peerVi;
        final long taken = vi.recvQueue().taken();
        if (null != current && record.recvConsumerIndex() > taken && current.peer.hasDied() &&
            RecvCompletion.flushAbandoned(nic.self(), record, ring, taken) > 0)
        {
            RecvCompletion.wake(nic.self(), record);
        }
    }

    private void breakPeer(final PeerVi current, final AsyncError error, final String detail)
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
}
