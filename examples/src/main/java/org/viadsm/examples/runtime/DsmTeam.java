package org.viadsm.examples.runtime;

import java.io.OutputStream;
import java.io.PrintStream;

import org.viadsm.consistency.home.Placement;
import org.viadsm.dsm.Dsm;
import org.viadsm.dsm.array.ByteArray;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.FloatArray;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.LongArray;

/**
 * A team member that is a DSM node: allocations are shared arrays, locks are {@code DsmLock}s, barriers and pauses
 * are the DSM's barriers and semaphores.
 */
public final class DsmTeam implements Team
{
    private final Dsm dsm;
    private final Placement placement;
    private final PrintStream out;

    /**
     * Wraps a node.
     *
     * @param dsm       the joined node.
     * @param placement the placement of every array the application allocates.
     * @param out       where node 0 prints; other nodes print nowhere.
     */
    public DsmTeam(final Dsm dsm, final Placement placement, final PrintStream out)
    {
        this.dsm = dsm;
        this.placement = placement;
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
    public DoubleArray doubles(final String name, final int length)
    {
        return dsm.allocDoubles(name, length, placement);
    }

    @Override
    public FloatArray floats(final String name, final int length)
    {
        return dsm.allocFloats(name, length, placement);
    }

    @Override
    public LongArray longs(final String name, final int length)
    {
        return dsm.allocLongs(name, length, placement);
    }

    @Override
    public IntArray ints(final String name, final int length)
    {
        return dsm.allocInts(name, length, placement);
    }

    @Override
    public ByteArray bytes(final String name, final int length)
    {
        return dsm.allocBytes(name, length, placement);
    }

    @Override
    public PrintStream out()
    {
        return out;
    }
}
