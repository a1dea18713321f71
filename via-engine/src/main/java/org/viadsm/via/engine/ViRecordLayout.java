package org.viadsm.via.engine;

import org.agrona.BitUtil;
import org.viadsm.via.ViState;

/**
 * Layout of a VI record in a NIC's shared area: the target-side state of one VI, followed by its receive ring of
 * {@link RecvEntryLayout} entries.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |     State: 0 free, 1 idle, 2 pending, 3 connected, 4 error    |  0
 *  +---------------------------------------------------------------+
 *  |                       Protection Tag                          |  4
 *  +---------------------------------------------------------------+
 *  |               Reliability Level (VIPL value 1, 2, 4)          |  8
 *  +-----------------------------------------------------------+-+-+
 *  |                          Reserved                         |R|W|  12  RDMA enable bits
 *  +-----------------------------------------------------------+-+-+
 *  |                  Maximum Transfer Size (own)                  |  16
 *  +---------------------------------------------------------------+
 *  |           Effective Maximum Transfer Size (connected)         |  20
 *  +---------------------------------------------------------------+
 *  |                 Send CQ Id (-1 if none)                       |  24
 *  +---------------------------------------------------------------+
 *  |                 Recv CQ Id (-1 if none)                       |  28
 *  +---------------------------------------------------------------+
 *  |                     Peer NIC Id (long)                        |  32
 *  +---------------------------------------------------------------+
 *  |                         Peer VI Id                            |  40
 *  +---------------------------------------------------------------+
 *  |        Incarnation: how many VIs the record has held          |  44
 *  +---------------------------------------------------------------+
 *  |   Connect Word (long): sequence(32) | peer VI(16) | result(8) |  48
 *  +---------------------------------------------------------------+
 *  |   Receive Sleeper: bell of a thread asleep on receives + 1 |  56
 *  +---------------------------------------------------------------+
 *  |        Receive Producer Index (long), own cache line          |  64
 *  +---------------------------------------------------------------+
 *  |  Receive Consumer Word (long): epoch(24) | index(40), own line |  128
 *  +---------------------------------------------------------------+
 *  |        Receive entries, queueDepth x RecvEntryLayout          |  192
 *  +---------------------------------------------------------------+
 * </pre>
 * The receive consumer word carries a connection epoch, advanced each time a connection attempt starts (and when
 * the record is reused), so that a sender of an earlier connection that passed its checks before the record
 * reconnected cannot claim a receive posted for the next connection: it claims only while the epoch is the one it
 * connected at.
 * <p>
 * The connect word settles a connection request with one compare-and-set: the requester writes
 * (sequence, 0, {@link #RESULT_PENDING}); the answering side sets the result and its VI id; a requester that gives
 * up sets {@link #RESULT_ABANDONED}. Whoever changes it first wins.
 * <p>
 * The receive sleeper word is 0 unless a thread of the owner is about to sleep, or sleeps, waiting on the VI's
 * receive queue: then it holds the id of the bell that wakes it, plus 1 (see {@link WaitSlot}).
 */
final class ViRecordLayout
{
    /** Record state: unused. */
    static final int STATE_FREE = 0;
    /** Record state: {@link ViState#IDLE}. */
    static final int STATE_IDLE = 1;
    /** Record state: {@link ViState#CONNECT_PENDING}. */
    static final int STATE_CONNECT_PENDING = 2;
    /** Record state: {@link ViState#CONNECTED}. */
    static final int STATE_CONNECTED = 3;
    /** Record state: {@link ViState#ERROR}. */
    static final int STATE_ERROR = 4;

    /** Connect result: no answer yet. */
    static final int RESULT_PENDING = 0;
    /** Connect result: accepted (or matched, peer to peer). */
    static final int RESULT_ACCEPTED = 1;
    /** Connect result: rejected. */
    static final int RESULT_REJECTED = 2;
    /** Connect result: the attributes cannot be connected. */
    static final int RESULT_NO_MATCH = 3;
    /** Connect result: the requester gave up (timeout or disconnect). */
    static final int RESULT_ABANDONED = 4;

    /** Offset of the state word. */
    static final int STATE_OFFSET = 0;
    /** Offset of the protection tag value. */
    static final int PTAG_OFFSET = 4;
    /** Offset of the reliability level's VIPL value. */
    static final int RELIABILITY_OFFSET = 8;
    /** Offset of the RDMA enable bits. */
    static final int FLAGS_OFFSET = 12;
    /** Offset of the VI's own maximum transfer size. */
    static final int MAX_TRANSFER_OFFSET = 16;
    /** Offset of the maximum transfer size agreed at connection. */
    static final int EFFECTIVE_MAX_TRANSFER_OFFSET = 20;
    /** Offset of the send completion queue id. */
    static final int SEND_CQ_ID_OFFSET = 24;
    /** Offset of the receive completion queue id. */
    static final int RECV_CQ_ID_OFFSET = 28;
    /** Offset of the peer NIC's id. */
    static final int PEER_NIC_ID_OFFSET = 32;
    /** Offset of the peer VI's id. */
    static final int PEER_VI_ID_OFFSET = 40;
    /**
     * Offset of the incarnation, advanced each time the record is given to a new VI; completion-queue entries carry
     * it, so that an entry of a destroyed VI is never reported for the VI that took its id.
     */
    static final int INCARNATION_OFFSET = 44;
    /** Offset of the connect word. */
    static final int CONNECT_WORD_OFFSET = 48;
    /** Offset of the receive sleeper word: the bell of a thread asleep on the receive queue, plus 1, or 0. */
    static final int RECV_SLEEPER_OFFSET = 56;
    /** Offset of the receive ring's producer index, written by the owner. */
    static final int RECV_PRODUCER_OFFSET = 64;
    /**
     * Offset of the receive ring's consumer word, {@code epoch(24) | index(40)}: the index is advanced by
     * compare-and-set by whoever claims an entry, the epoch whenever a connection attempt starts.
     */
    static final int RECV_CONSUMER_OFFSET = 128;
    /** Offset of the first receive entry. */
    static final int RECV_ENTRIES_OFFSET = 192;

    /** Bits of the receive index in the consumer word. */
    static final int RECV_INDEX_BITS = 40;

    private static final long RECV_INDEX_MASK = (1L << RECV_INDEX_BITS) - 1;
    private static final int RESULT_MASK = 0xFF;
    private static final int PEER_VI_SHIFT = 8;

    private ViRecordLayout()
    {
    }

    /**
     * Bytes of a record with its receive ring.
     *
     * @param queueDepth  entries of the receive ring.
     * @param maxSegments data segments per entry.
     * @return the record length, a multiple of the cache line.
     */
    static int recordLength(final int queueDepth, final int maxSegments)
    {
        return BitUtil.align(RECV_ENTRIES_OFFSET + queueDepth * RecvEntryLayout.length(maxSegments),
            BitUtil.CACHE_LINE_LENGTH);
    }

    /**
     * Builds a connect word.
     *
     * @param sequence the request's sequence number.
     * @param peerViId the answering VI, 0 while pending.
     * @param result   a {@code RESULT_*} value.
     * @return the word.
     */
    static long connectWord(final int sequence, final int peerViId, final int result)
    {
        return ((long)sequence << 32) | ((long)(peerViId & 0xFFFF) << PEER_VI_SHIFT) | (result & RESULT_MASK);
    }

    /**
     * The sequence number of a connect word.
     *
     * @param word the word.
     * @return the sequence.
     */
    static int connectSequence(final long word)
    {
        return (int)(word >>> 32);
    }

    /**
     * The answering VI of a connect word.
     *
     * @param word the word.
     * @return the peer VI id.
     */
    static int connectPeerVi(final long word)
    {
        return (int)(word >>> PEER_VI_SHIFT) & 0xFFFF;
    }

    /**
     * The result of a connect word.
     *
     * @param word the word.
     * @return a {@code RESULT_*} value.
     */
    static int connectResult(final long word)
    {
        return (int)word & RESULT_MASK;
    }

    /**
     * Builds a receive consumer word.
     *
     * @param epoch the connection epoch (its low 24 bits are kept).
     * @param index the consumer index.
     * @return the word.
     */
    static long consumerWord(final long epoch, final long index)
    {
        return (epoch << RECV_INDEX_BITS) | (index & RECV_INDEX_MASK);
    }

    /**
     * The consumer index of a consumer word.
     *
     * @param word the word.
     * @return the index.
     */
    static long consumerIndex(final long word)
    {
        return word & RECV_INDEX_MASK;
    }

    /**
     * The connection epoch of a consumer word.
     *
     * @param word the word.
     * @return the epoch.
     */
    static long consumerEpoch(final long word)
    {
        return word >>> RECV_INDEX_BITS;
    }

    /**
     * Maps a record state to the API's VI state.
     *
     * @param state a {@code STATE_*} value other than free.
     * @return the VI state.
     */
    static ViState viState(final int state)
    {
        switch (state)
        {
            case STATE_IDLE:
                return ViState.IDLE;
            case STATE_CONNECT_PENDING:
                return ViState.CONNECT_PENDING;
            case STATE_CONNECTED:
                return ViState.CONNECTED;
            case STATE_ERROR:
                return ViState.ERROR;
            default:
                throw new IllegalStateException("VI record is free or corrupt: state=" + state);
        }
    }
}
