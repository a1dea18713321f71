package org.viadsm.consistency;

/**
 * A node's synchronization count. Every release and every acquire advances it, and so does leaving the cluster:
 * whatever was made valid for the current interval (an access view over pages made readable or writable) keeps
 * the value it saw and knows, with one compare, that a synchronization has happened since and that the pages it
 * relied on may have changed state.
 * <p>
 * A synchronization path that changes page states without
 * {@link org.viadsm.consistency.interval.Intervals#release()} or
 * {@link org.viadsm.consistency.interval.Intervals#acquire(VectorClock)} must call {@link #advance()} itself.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class SyncEpoch
{
    private long value;

    /**
     * Creates an epoch at zero.
     */
    public SyncEpoch()
    {
    }

    /**
     * The current epoch.
     *
     * @return the number of synchronizations so far.
     */
    public long value()
    {
        return value;
    }

    /**
     * Ends the current epoch: a synchronization begins.
     */
    public void advance()
    {
        value++;
    }
}
