package org.viadsm.via.engine;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.via.internal.CheckedSpan;

import static org.viadsm.via.engine.ViRecordLayout.CONNECT_WORD_OFFSET;
import static org.viadsm.via.engine.ViRecordLayout.EFFECTIVE_MAX_TRANSFER_OFFSET;
import static org.viadsm.via.engine.ViRecordLayout.FLAGS_OFFSET;
import static org.viadsm.via.engine.ViRecordLayout.MAX_TRANSFER_OFFSET;
import static org.viadsm.via.engine.ViRecordLayout.PEER_NIC_ID_OFFSET;
import static org.viadsm.via.engine.ViRecordLayout.PEER_VI_ID_OFFSET;
import static org.viadsm.via.engine.ViRecordLayout.PTAG_OFFSET;
import static org.viadsm.via.engine.ViRecordLayout.RECV_CONSUMER_OFFSET;
import static org.viadsm.via.engine.ViRecordLayout.RECV_CQ_ID_OFFSET;
import static org.viadsm.via.engine.ViRecordLayout.RECV_PRODUCER_OFFSET;
import static org.viadsm.via.engine.ViRecordLayout.RECV_SLEEPER_OFFSET;
import static org.viadsm.via.engine.ViRecordLayout.RELIABILITY_OFFSET;
import static org.viadsm.via.engine.ViRecordLayout.SEND_CQ_ID_OFFSET;
import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECTED;
import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECT_PENDING;
import static org.viadsm.via.engine.ViRecordLayout.STATE_IDLE;
import static org.viadsm.via.engine.ViRecordLayout.STATE_OFFSET;

/**
 * Flyweight over one VI record of {@link ViRecordLayout}, bound to its record at construction and never moved, so
 * one instance may be shared by threads.
 * <p>
 * <b>Note:</b> the attribute fields are written by the owner at {@link #initialize} and only read afterwards; the
 * state word and the connect word change by compare-and-set from any side of a connection; the peer fields are
 * written by whichever side establishes the connection, before the state becomes connected with release semantics.
 */
final class ViRecord
{
    private final CheckedSpan buffer;
    private final int offset;
    private final int viId;
    // where the state word lies, which every post reads: one load from the record, without going through the span
    private final Object stateBase;
    private final long stateAddress;

    /**
     * Binds a flyweight to a record.
     *
     * @param area     the NIC area.
     * @param geometry the area's geometry.
     * @param viId     the VI id.
     */
    ViRecord(final AtomicBuffer area, final NicGeometry geometry, final int viId)
    {
        this.offset = geometry.viRecordOffset(viId);
        this.buffer = new CheckedSpan(area, offset, geometry.viRecordLength());
        this.viId = viId;
        this.stateBase = area.byteArray();
        this.stateAddress = area.addressOffset() + offset + STATE_OFFSET;
    }

    /**
     * The VI id of this record.
     *
     * @return the id.
     */
    int viId()
    {
        return viId;
    }

    /**
     * Offset of the record in the area.
     *
     * @return the offset.
     */
    int offset()
    {
        return offset;
    }

    /**
     * Owner side: initializes a free record for a new VI and makes it idle with release semantics. The receive
     * ring restarts empty at its current producer index, and the connect word keeps the last request's sequence
     * number, settled as abandoned, so that the new VI's requests continue the sequence and a request the record's
     * previous VI left at a server can never settle the new VI's.
     *
     * @param ptag        protection tag value.
     * @param reliability VIPL value of the reliability level.
     * @param flags       RDMA enable bits.
     * @param maxTransfer maximum transfer size.
     * @param sendCqId    send completion queue id, or -1.
     * @param recvCqId    receive completion queue id, or -1.
     */
    void initialize(
        final int ptag,
        final int reliability,
        final int flags,
        final int maxTransfer,
        final int sendCqId,
        final int recvCqId)
    {
        buffer.putInt(offset + PTAG_OFFSET, ptag);
        buffer.putInt(offset + RELIABILITY_OFFSET, reliability);
        buffer.putInt(offset + FLAGS_OFFSET, flags);
        buffer.putInt(offset + MAX_TRANSFER_OFFSET, maxTransfer);
        buffer.putInt(offset + EFFECTIVE_MAX_TRANSFER_OFFSET, maxTransfer);
        buffer.putInt(offset + SEND_CQ_ID_OFFSET, sendCqId);
        buffer.putInt(offset + RECV_CQ_ID_OFFSET, recvCqId);
        buffer.putLong(offset + PEER_NIC_ID_OFFSET, 0);
        buffer.putInt(offset + PEER_VI_ID_OFFSET, -1);
        buffer.putInt(offset + RECV_SLEEPER_OFFSET, 0);
        final int lastSequence = ViRecordLayout.connectSequence(buffer.getLongVolatile(offset + CONNECT_WORD_OFFSET));
        buffer.putLong(offset + CONNECT_WORD_OFFSET,
            ViRecordLayout.connectWord(lastSequence, 0, ViRecordLayout.RESULT_ABANDONED));
        buffer.putInt(offset + ViRecordLayout.INCARNATION_OFFSET,
            buffer.getInt(offset + ViRecordLayout.INCARNATION_OFFSET) + 1);
        final long producer = buffer.getLongVolatile(offset + RECV_PRODUCER_OFFSET);
        final long epoch = ViRecordLayout.consumerEpoch(buffer.getLongVolatile(offset + RECV_CONSUMER_OFFSET));
        buffer.putLongVolatile(offset + RECV_CONSUMER_OFFSET, ViRecordLayout.consumerWord(epoch + 1, producer));
        buffer.putIntRelease(offset + STATE_OFFSET, STATE_IDLE);
    }

    /**
     * Offset in the area of the receive sleeper word, where the owner's waiting thread announces its bell.
     *
     * @return the offset.
     */
    int recvSleeperOffset()
    {
        return offset + RECV_SLEEPER_OFFSET;
    }

    /**
     * Completer side: takes the bell a thread of the owner sleeps on waiting for receives, so that exactly one
     * completer rings it per announcement. Call after a full fence that follows the completion's publication.
     *
     * @return the bell's id, or -1 if nobody sleeps.
     */
    int takeRecvSleeper()
    {
        // WaitSlot.takeSleeper's protocol, on the record's span
        final int word = buffer.getIntVolatile(offset + RECV_SLEEPER_OFFSET);
        return 0 != word && buffer.compareAndSetInt(offset + RECV_SLEEPER_OFFSET, word, 0) ? word - 1 : -1;
    }

    /**
     * The state, read with acquire semantics.
     *
     * @return a {@code STATE_*} value of {@link ViRecordLayout}.
     */
    int state()
    {
        return UnsafeApi.getIntAcquire(stateBase, stateAddress);
    }

    /**
     * Stores the state with release semantics.
     *
     * @param state a {@code STATE_*} value.
     */
    void state(final int state)
    {
        buffer.putIntRelease(offset + STATE_OFFSET, state);
    }

    /**
     * Changes the state atomically.
     *
     * @param expected the state it must have.
     * @param update   the new state.
     * @return true if changed.
     */
    boolean compareAndSetState(final int expected, final int update)
    {
        return buffer.compareAndSetInt(offset + STATE_OFFSET, expected, update);
    }

    /**
     * The protection tag value.
     *
     * @return the ptag.
     */
    int ptag()
    {
        return buffer.getInt(offset + PTAG_OFFSET);
    }

    /**
     * The reliability level's VIPL value.
     *
     * @return 1, 2 or 4.
     */
    int reliability()
    {
        return buffer.getInt(offset + RELIABILITY_OFFSET);
    }

    /**
     * The RDMA enable bits.
     *
     * @return flags of {@link RegistrationLayout}.
     */
    int flags()
    {
        return buffer.getInt(offset + FLAGS_OFFSET);
    }

    /**
     * The VI's own maximum transfer size.
     *
     * @return bytes.
     */
    int maxTransfer()
    {
        return buffer.getInt(offset + MAX_TRANSFER_OFFSET);
    }

    /**
     * The maximum transfer size agreed with the peer.
     *
     * @return bytes.
     */
    int effectiveMaxTransfer()
    {
        return buffer.getInt(offset + EFFECTIVE_MAX_TRANSFER_OFFSET);
    }

    /**
     * The send completion queue.
     *
     * @return its id, or -1.
     */
    int sendCqId()
    {
        return buffer.getInt(offset + SEND_CQ_ID_OFFSET);
    }

    /**
     * The receive completion queue.
     *
     * @return its id, or -1.
     */
    int recvCqId()
    {
        return buffer.getInt(offset + RECV_CQ_ID_OFFSET);
    }

    /**
     * The record's incarnation: how many VIs it has held, written before the state is published.
     *
     * @return the incarnation.
     */
    int incarnation()
    {
        return buffer.getInt(offset + ViRecordLayout.INCARNATION_OFFSET);
    }

    /**
     * The peer NIC's id.
     *
     * @return the id, 0 if never connected.
     */
    long peerNicId()
    {
        return buffer.getLong(offset + PEER_NIC_ID_OFFSET);
    }

    /**
     * The peer VI's id.
     *
     * @return the id, -1 if never connected.
     */
    int peerViId()
    {
        return buffer.getInt(offset + PEER_VI_ID_OFFSET);
    }

    /**
     * Whether the VI is connected to the given peer VI: the check a target makes before an initiator may touch it.
     *
     * @param nicId initiator NIC id.
     * @param viId  initiator VI id.
     * @return true if connected to exactly that VI.
     */
    boolean isConnectedTo(final long nicId, final int viId)
    {
        return STATE_CONNECTED == state() &&
            buffer.getLong(offset + PEER_NIC_ID_OFFSET) == nicId &&
            buffer.getInt(offset + PEER_VI_ID_OFFSET) == viId;
    }

    /**
     * Establishes a connection: writes the peer fields, then moves the state from {@code expectedState} to
     * connected with a compare-and-set.
     *
     * @param expectedState        the state the record must be in, normally connect-pending.
     * @param peerNicId            the peer NIC.
     * @param peerViId             the peer VI.
     * @param effectiveMaxTransfer the agreed maximum transfer size.
     * @return true if the record is now connected.
     */
    boolean establish(
        final int expectedState, final long peerNicId, final int peerViId, final int effectiveMaxTransfer)
    {
        buffer.putLong(offset + PEER_NIC_ID_OFFSET, peerNicId);
        buffer.putInt(offset + PEER_VI_ID_OFFSET, peerViId);
        buffer.putInt(offset + EFFECTIVE_MAX_TRANSFER_OFFSET, effectiveMaxTransfer);
        return buffer.compareAndSetInt(offset + STATE_OFFSET, expectedState, STATE_CONNECTED);
    }

    /**
     * Owner side: starts a connection request: moves the state from idle to connect-pending, advances the receive
     * ring's connection epoch (every connection of the record starts here, so the senders of earlier ones hold an
     * older epoch), clears the peer fields and writes a pending connect word.
     *
     * @param sequence the request's sequence number.
     * @return false if the VI was not idle.
     */
    boolean beginConnect(final int sequence)
    {
        if (!buffer.compareAndSetInt(offset + STATE_OFFSET, STATE_IDLE, STATE_CONNECT_PENDING))
        {
            return false;
        }
        long word;
        do
        {
            word = buffer.getLongVolatile(offset + RECV_CONSUMER_OFFSET);
        }
        while (!buffer.compareAndSetLong(offset + RECV_CONSUMER_OFFSET, word, ViRecordLayout.consumerWord(
            ViRecordLayout.consumerEpoch(word) + 1, ViRecordLayout.consumerIndex(word))));
        buffer.putLong(offset + PEER_NIC_ID_OFFSET, 0);
        buffer.putInt(offset + PEER_VI_ID_OFFSET, -1);
        buffer.putLongVolatile(offset + CONNECT_WORD_OFFSET,
            ViRecordLayout.connectWord(sequence, 0, ViRecordLayout.RESULT_PENDING));
        return true;
    }

    /**
     * The connect word, read with volatile semantics.
     *
     * @return the word.
     */
    long connectWord()
    {
        return buffer.getLongVolatile(offset + CONNECT_WORD_OFFSET);
    }

    /**
     * Settles a pending connection request: sets its result if it is still pending with this sequence number.
     *
     * @param sequence the request's sequence number.
     * @param peerViId the answering VI, or 0.
     * @param result   a {@code RESULT_*} value.
     * @return true if this call settled the request.
     */
    boolean settle(final int sequence, final int peerViId, final int result)
    {
        return buffer.compareAndSetLong(offset + CONNECT_WORD_OFFSET,
            ViRecordLayout.connectWord(sequence, 0, ViRecordLayout.RESULT_PENDING),
            ViRecordLayout.connectWord(sequence, peerViId, result));
    }

    /**
     * The receive ring's producer index, read with acquire semantics.
     *
     * @return entries ever posted.
     */
    long recvProducerIndex()
    {
        return buffer.getLongAcquire(offset + RECV_PRODUCER_OFFSET);
    }

    /**
     * The receive ring's consumer index, read with volatile semantics.
     *
     * @return entries ever claimed.
     */
    long recvConsumerIndex()
    {
        return ViRecordLayout.consumerIndex(buffer.getLongVolatile(offset + RECV_CONSUMER_OFFSET));
    }

    /**
     * The receive ring's connection epoch, read with volatile semantics: it advances when a connection attempt
     * starts, and a connection's senders claim receives only while it is the one they connected at (read once the
     * attempt has started, before or after the record is established).
     *
     * @return the epoch.
     */
    long recvEpoch()
    {
        return ViRecordLayout.consumerEpoch(buffer.getLongVolatile(offset + RECV_CONSUMER_OFFSET));
    }

    /**
     * Whether the record is connect-pending (used while a request is being answered).
     *
     * @return true if connect-pending.
     */
    boolean isConnectPending()
    {
        return STATE_CONNECT_PENDING == state();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "ViRecord{vi=" + viId + ", state=" + state() + ", peer=" + Long.toHexString(peerNicId()) + '/' +
            peerViId() + '}';
    }
}
