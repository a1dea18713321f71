package org.viadsm.consistency.sync;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.ControlRegionLayout;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.interval.Intervals;
import org.viadsm.consistency.port.ProtocolPort;

/**
 * What every synchronization protocol of a node works with: the network, this node's control region and its
 * layout, the node's intervals, its notification state and its counters.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class SyncNode
{
    /** Region id of the control region, the same on every node. */
    public static final int CONTROL = 0;

    final ProtocolPort port;
    final ControlRegionLayout layout;
    final Intervals intervals;
    final SyncState sync;
    final Counters counters;
    final AtomicBuffer control;
    final int nodeId;
    final int nodeCount;
    private int scalarCell;

    /**
     * Gathers a node's synchronization plumbing.
     *
     * @param port      the network; region {@link #CONTROL} is the control region.
     * @param layout    the control region layout.
     * @param intervals the node's intervals.
     * @param sync      the node's notification state.
     * @param counters  the node's counters.
     */
    public SyncNode(
        final ProtocolPort port,
        final ControlRegionLayout layout,
        final Intervals intervals,
        final SyncState sync,
        final Counters counters)
    {
        this.port = port;
        this.layout = layout;
        this.intervals = intervals;
        this.sync = sync;
        this.counters = counters;
        this.control = port.region(CONTROL);
        this.nodeId = port.nodeId();
        this.nodeCount = port.nodeCount();
    }

    /**
     * Offset of an outbox slot of this node's control region.
     *
     * @param slot one of {@code ControlRegionLayout.OUTBOX_*}.
     * @return its offset.
     */
    int outbox(final int slot)
    {
        return layout.outbox(slot);
    }

    /**
     * Reads an 8-byte word of a node's control region (this node's directly).
     *
     * @param node   the node.
     * @param offset the word.
     * @return its value.
     */
    long readWord(final int node, final int offset)
    {
        if (node == nodeId)
        {
            return control.getLongVolatile(offset);
        }
        final int inbox = layout.outbox(ControlRegionLayout.OUTBOX_INBOX);
        port.read(node, CONTROL, offset, CONTROL, inbox, Long.BYTES);
        return control.getLong(inbox);
    }

    /**
     * Reads {@code length} bytes of a node's control region into this node's inbox slot.
     *
     * @param node   the node.
     * @param offset where to read.
     * @param length bytes, at most a clock stride.
     * @return the inbox offset where they are.
     */
    int readInto(final int node, final int offset, final int length)
    {
        final int inbox = layout.outbox(ControlRegionLayout.OUTBOX_INBOX);
        port.read(node, CONTROL, offset, CONTROL, inbox, length);
        return inbox;
    }

    /**
     * Starts writing an 8-byte word into a node's control region (this node's directly); lands by the next
     * {@code flushWrites}. The value is sent from one of 8 cells of the scalar outbox slot, used in turn: a write
     * may still be reading its cell, so the port is flushed before the cells come round again.
     *
     * @param node   the node.
     * @param offset the word.
     * @param value  the value.
     */
    void writeWord(final int node, final int offset, final long value)
    {
        if (node == nodeId)
        {
            control.putLongVolatile(offset, value);
            return;
        }
        if (0 == scalarCell)
        {
            port.flushWrites();
        }
        final int cell = layout.outbox(ControlRegionLayout.OUTBOX_SCALAR) + scalarCell * Long.BYTES;
        scalarCell = (scalarCell + 1) & 7;
        control.putLong(cell, value);
        port.write(node, CONTROL, offset, CONTROL, cell, Long.BYTES);
    }

    /**
     * Compare-and-swap on a word of a node's control region.
     *
     * @param node     the node.
     * @param offset   the word.
     * @param expected the value it must hold.
     * @param update   the new value.
     * @return the previous value.
     */
    long compareAndSwap(final int node, final int offset, final long expected, final long update)
    {
        return port.compareAndSwap(node, CONTROL, offset, expected, update);
    }
}
