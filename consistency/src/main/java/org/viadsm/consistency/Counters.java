package org.viadsm.consistency;

/**
 * A node's counters, one per {@link Counter}.
 * <p>
 * <b>Note:</b> written by the node's application thread only. Another thread reading them sees values that are
 * current as of its last synchronization with that thread (e.g. after joining it).
 */
public final class Counters
{
    private static final Counter[] COUNTERS = Counter.values();

    private final long[] values = new long[COUNTERS.length];

    /**
     * Creates the counters, all zero.
     */
    public Counters()
    {
    }

    /**
     * Adds one.
     *
     * @param counter the counter.
     */
    public void increment(final Counter counter)
    {
        values[counter.ordinal()]++;
    }

    /**
     * Adds {@code delta}.
     *
     * @param counter the counter.
     * @param delta   the amount.
     */
    public void add(final Counter counter, final long delta)
    {
        values[counter.ordinal()] += delta;
    }

    /**
     * The current value.
     *
     * @param counter the counter.
     * @return its value.
     */
    public long get(final Counter counter)
    {
        return values[counter.ordinal()];
    }

    /**
     * Sets every counter to 0.
     */
    public void reset()
    {
        java.util.Arrays.fill(values, 0L);
    }

    /**
     * A copy of every value, indexed by {@link Counter#ordinal()}.
     *
     * @return the values.
     */
    public long[] snapshot()
    {
        return values.clone();
    }
}
