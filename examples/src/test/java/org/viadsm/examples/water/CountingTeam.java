package org.viadsm.examples.water;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;

import org.viadsm.dsm.array.ByteArray;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.FloatArray;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.LongArray;
import org.viadsm.examples.runtime.Team;

/**
 * A team member that counts its barriers and lock acquisitions into shared counters.
 */
final class CountingTeam implements Team
{
    private final Team team;
    private final AtomicLong barriers;
    private final AtomicLong locks;

    CountingTeam(final Team team, final AtomicLong barriers, final AtomicLong locks)
    {
        this.team = team;
        this.barriers = barriers;
        this.locks = locks;
    }

    @Override
    public int id()
    {
        return team.id();
    }

    @Override
    public int size()
    {
        return team.size();
    }

    @Override
    public void barrier()
    {
        barriers.incrementAndGet();
        team.barrier();
    }

    @Override
    public void lock(final int lockId)
    {
        locks.incrementAndGet();
        team.lock(lockId);
    }

    @Override
    public void unlock(final int lockId)
    {
        team.unlock(lockId);
    }

    @Override
    public void setPause(final int pauseId)
    {
        team.setPause(pauseId);
    }

    @Override
    public void waitPause(final int pauseId)
    {
        team.waitPause(pauseId);
    }

    @Override
    public void clearPause(final int pauseId)
    {
        team.clearPause(pauseId);
    }

    @Override
    public DoubleArray doubles(final String name, final int length)
    {
        return team.doubles(name, length);
    }

    @Override
    public FloatArray floats(final String name, final int length)
    {
        return team.floats(name, length);
    }

    @Override
    public LongArray longs(final String name, final int length)
    {
        return team.longs(name, length);
    }

    @Override
    public IntArray ints(final String name, final int length)
    {
        return team.ints(name, length);
    }

    @Override
    public ByteArray bytes(final String name, final int length)
    {
        return team.bytes(name, length);
    }

    @Override
    public PrintStream out()
    {
        return team.out();
    }
}
