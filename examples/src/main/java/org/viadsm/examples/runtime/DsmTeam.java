package org.viadsm.examples.runtime;

import java.io.OutputStream;
import java.io.PrintStream;

import org.viadsm.dsm.Dsm;
import org.viadsm.dsm.Placement;
import org.viadsm.dsm.array.ByteArray;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.FloatArray;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.LongArray;

/**
 * A team member that is a DSM node: allocations are shared arrays placed as the application asks (or all as one
 * override placement), locks are {@code DsmLock}s, barriers and pauses are the DSM's barriers and semaphores.
 */
public final class DsmTeam implements Team
{
    private final Dsm dsm;
    private final Placement override;
    private final PrintStream out;

    /**
     * Wraps a node whose arrays are placed as the application asks.
     *
     * @param dsm the joined node.
     * @param out where node 0 prints; other nodes print nowhere.
     */
    public DsmTeam(final Dsm dsm, final PrintStream out)
    {
        this(dsm, null, out);
    }

    /**
     * Wraps a node.
     *
     * @param dsm      the joined node.
     * @param override the placement of every array the application allocates, whatever it asks; null to place
     *                 each array as the application asks.
     * @param out      where node 0 prints; other nodes print nowhere.
     */
    public DsmTeam(final Dsm dsm, final Placement override, final PrintStream out)
    {
        this.dsm = dsm;
        this.override = override;
        this.out = 0 == dsm.nodeId() ? out : new PrintStream(OutputStream.nullOutputStream());
    }

    /**
     * The node behind this member.
     *
     * @return the node.
     */
    public Dsm dsm()
    {
        return dsm;
    }

    @Override
    public int id()
    {
        return dsm.nodeId();
    }

    @Override
    public int size()
    {
        return dsm.nodeCount();
    }

    @Override
    public void barrier()
    {
        dsm.barrier();
    }

    @Override
    public void beginTimedPhase()
    {
        dsm.beginMeasuredPhase();
    }

    @Override
    public void endTimedPhase()
    {
        dsm.endMeasuredPhase();
    }

    @Override
    public void lock(final int lockId)
    {
        dsm.lock(lockId).lock();
    }

    @Override
    public void unlock(final int lockId)
    {
        dsm.lock(lockId).unlock();
    }

    @Override
    public void setPause(final int pauseId)
    {
        dsm.semaphorePost(pauseId);
    }

    @Override
    public void waitPause(final int pauseId)
    {
        dsm.semaphoreWait(pauseId);
    }

    @Override
    public void clearPause(final int pauseId)
    {
    }

    @Override
    public DoubleArray doubles(final String name, final int length, final Placement placement)
    {
        return dsm.allocDoubles(name, length, placed(placement));
    }

    @Override
    public FloatArray floats(final String name, final int length, final Placement placement)
    {
        return dsm.allocFloats(name, length, placed(placement));
    }

    @Override
    public LongArray longs(final String name, final int length, final Placement placement)
    {
        return dsm.allocLongs(name, length, placed(placement));
    }

    @Override
    public IntArray ints(final String name, final int length, final Placement placement)
    {
        return dsm.allocInts(name, length, placed(placement));
    }

    @Override
    public ByteArray bytes(final String name, final int length, final Placement placement)
    {
        return dsm.allocBytes(name, length, placed(placement));
    }

    @Override
    public PrintStream out()
    {
        return out;
    }

    private Placement placed(final Placement asked)
    {
        return null == override ? asked : override;
    }
}
