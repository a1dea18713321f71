package org.viadsm.consistency;

import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A vector timestamp: entry {@code p} is the sequence number of the latest interval of node {@code p} whose write
 * notices this clock covers. Intervals of node {@code p} are numbered 1, 2, 3, ...; 0 means none.
 * <p>
 * In lazy release consistency a release closes the releaser's current interval, and an acquire brings the
 * acquirer's clock up to the releaser's: the acquirer must then apply the write notices of exactly the intervals
 * {@code (mine[p], theirs[p]]} of every node {@code p}.
 * <p>
 * <b>Note:</b> a mutable value, not threadsafe.
 */
public final class VectorClock
{
    private final long[] entries;

    /**
     * Creates a clock of zeros.
     *
     * @param nodeCount number of nodes, at least 1.
     */
    public VectorClock(final int nodeCount)
    {
        if (nodeCount < 1)
        {
            throw new IllegalArgumentException("nodeCount must be at least 1: nodeCount=" + nodeCount);
        }
        this.entries = new long[nodeCount];
    }

    /**
     * Number of entries.
     *
     * @return the node count.
     */
    public int size()
    {
        return entries.length;
    }

    /**
     * Entry of node {@code node}.
     *
     * @param node the node.
     * @return the latest covered interval of that node.
     */
    public long get(final int node)
    {
        return entries[node];
    }

    /**
     * Sets the entry of node {@code node}.
     *
     * @param node  the node.
     * @param value the interval sequence number.
     * @return this.
     */
    public VectorClock set(final int node, final long value)
    {
        entries[node] = value;
        return this;
    }

    /**
     * Raises every entry to at least the other clock's (pointwise maximum).
     *
     * @param other a clock of the same size.
     * @return this.
     */
    public VectorClock merge(final VectorClock other)
    {
        final long[] theirs = other.entries;
        for (int i = 0; i < entries.length; i++)
        {
            if (theirs[i] > entries[i])
            {
                entries[i] = theirs[i];
            }
        }
        return this;
    }

    /**
     * Whether this clock covers every interval the other covers.
     *
     * @param other a clock of the same size.
     * @return true if no entry of {@code other} exceeds this clock's.
     */
    public boolean covers(final VectorClock other)
    {
        for (int i = 0; i < entries.length; i++)
        {
            if (other.entries[i] > entries[i])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Copies another clock into this one.
     *
     * @param other a clock of the same size.
     * @return this.
     */
    public VectorClock copyFrom(final VectorClock other)
    {
        System.arraycopy(other.entries, 0, entries, 0, entries.length);
        return this;
    }

    /**
     * Sets every entry to 0.
     *
     * @return this.
     */
    public VectorClock clear()
    {
        Arrays.fill(entries, 0L);
        return this;
    }

    /**
     * Bytes the clock occupies in a buffer.
     *
     * @return {@code 8 * size()}.
     */
    public int encodedLength()
    {
        return entries.length * Long.BYTES;
    }

    /**
     * Writes the clock, entry by entry, as little-endian longs.
     *
     * @param buffer destination.
     * @param offset where the first entry goes.
     */
    public void write(final MutableDirectBuffer buffer, final int offset)
    {
        for (int i = 0; i < entries.length; i++)
        {
            buffer.putLong(offset + i * Long.BYTES, entries[i]);
        }
    }

    /**
     * Reads a clock written by {@link #write(MutableDirectBuffer, int)}.
     *
     * @param buffer source.
     * @param offset where the first entry is.
     * @return this.
     */
    public VectorClock read(final DirectBuffer buffer, final int offset)
    {
        for (int i = 0; i < entries.length; i++)
        {
            entries[i] = buffer.getLong(offset + i * Long.BYTES);
        }
        return this;
    }

    /**
     * Raises every entry to at least the clock stored at {@code offset}.
     *
     * @param buffer source.
     * @param offset where the first entry is.
     * @return this.
     */
    public VectorClock merge(final DirectBuffer buffer, final int offset)
    {
        for (int i = 0; i < entries.length; i++)
        {
            final long value = buffer.getLong(offset + i * Long.BYTES);
            if (value > entries[i])
            {
                entries[i] = value;
            }
        }
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public boolean equals(final Object o)
    {
        return o instanceof VectorClock && Arrays.equals(entries, ((VectorClock)o).entries);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int hashCode()
    {
        return Arrays.hashCode(entries);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return Arrays.toString(entries);
    }
}
