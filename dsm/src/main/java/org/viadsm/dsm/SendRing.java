package org.viadsm.dsm;

import org.viadsm.consistency.ProtocolException;
import org.viadsm.via.Nic;
import org.viadsm.via.Vi;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;

/**
 * The send side of the VI to one peer: a ring of reusable descriptors completed in posting order, and what each one
 * was (kind, region, length or notification) kept as primitives and made into a sentence only if it fails, so that
 * an operation allocates nothing.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class SendRing
{
    static final int RDMA_READ = 0;
    static final int RDMA_WRITE = 1;
    static final int NOTIFICATION = 2;
    static final int COMPARE_AND_SWAP = 3;
    static final int FETCH_AND_ADD = 4;

    private static final int SENDS_PER_PEER = 64;
    private static final long WAIT_SLICE_NS = 1_000_000_000L;

    final int node;
    final Vi vi;
    /** The most one descriptor may transfer on this VI. */
    final int maxTransfer;
    private final Nic nic;
    private final NodeLoss loss;
    private final int nodeId;
    private final Descriptor[] ring = new Descriptor[SENDS_PER_PEER];
    private final int[] kinds = new int[SENDS_PER_PEER];
    private final int[] regions = new int[SENDS_PER_PEER];
    private final int[] values = new int[SENDS_PER_PEER];
    private long posted;
    private long completed;

    SendRing(final Nic nic, final NodeLoss loss, final int nodeId, final int node, final Vi vi)
    {
        this.nic = nic;
        this.loss = loss;
        this.nodeId = nodeId;
        this.node = node;
        this.vi = vi;
        this.maxTransfer = Math.min(vi.attributes().maxTransferSize(), nic.attributes().maxTransferSize());
        for (int i = 0; i < SENDS_PER_PEER; i++)
        {
            ring[i] = Descriptor.allocate(1);
        }
    }

    /**
     * The next descriptor of the ring, reset; waits for the oldest to complete if all are posted.
     *
     * @return the descriptor.
     * @throws ProtocolException if the oldest failed.
     */
    Descriptor nextSend()
    {
        if (posted - completed == SENDS_PER_PEER)
        {
            reapOne();
        }
        return ring[(int)(posted % SENDS_PER_PEER)].reset();
    }

    /**
     * Posts the descriptor {@link #nextSend()} gave.
     *
     * @param d      the descriptor.
     * @param kind   what it does, for a failure's message: {@link #RDMA_READ} and the others.
     * @param region the region it touches.
     * @param value  its length in bytes, or the notification it carries.
     */
    void post(final Descriptor d, final int kind, final int region, final int value)
    {
        final int slot = (int)(posted % SENDS_PER_PEER);
        kinds[slot] = kind;
        regions[slot] = region;
        values[slot] = value;
        vi.postSend(d);
        posted++;
    }

    /**
     * Waits until a posted descriptor completed.
     *
     * @param d the descriptor.
     * @throws ProtocolException if it, or one posted before it, failed.
     */
    void await(final Descriptor d)
    {
        while (d.isPosted())
        {
            reapOne();
        }
    }

    /**
     * Waits until every posted descriptor completed.
     *
     * @throws ProtocolException if one failed.
     */
    void drain()
    {
        while (completed < posted)
        {
            reapOne();
        }
    }

    private void reapOne()
    {
        Descriptor done = vi.sendDone();
        while (null == done)
        {
            done = vi.sendWait(WAIT_SLICE_NS);
            if (null == done && nic.isClosed())
            {
                throw new ProtocolException(nodeId, "NIC closed while waiting for node " + node);
            }
        }
        final int slot = (int)(completed % SENDS_PER_PEER);
        completed++;
        final int status = done.status();
        if (DescriptorStatus.isError(status))
        {
            final String failure = describe(slot) + " to node " + node + " failed: " +
                DescriptorStatus.toString(status);
            if (0 != (status & (DescriptorStatus.DESC_FLUSHED_ERROR | DescriptorStatus.TRANSPORT_ERROR)))
            {
                loss.connectionFailed(node, "its connection failed (" + failure + ")");
            }
            throw new ProtocolException(nodeId, failure);
        }
    }

    private String describe(final int slot)
    {
        final int region = regions[slot];
        final int value = values[slot];
        switch (kinds[slot])
        {
            case RDMA_READ:
                return "RDMA Read of " + value + " bytes from region " + region;
            case RDMA_WRITE:
                return "RDMA Write of " + value + " bytes to region " + region;
            case NOTIFICATION:
                return "notification 0x" + Integer.toHexString(value);
            case COMPARE_AND_SWAP:
                return "compare-and-swap in region " + region;
            default:
                return "fetch-and-add in region " + region;
        }
    }
}
