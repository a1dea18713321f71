package org.viadsm.examples.runtime;

import java.io.PrintStream;

import org.viadsm.dsm.Placement;
import org.viadsm.dsm.array.ByteArray;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.FloatArray;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.LongArray;

/**
 * A team member that forwards every call to another; tests subclass it to count or alter some calls.
 */
public class DelegatingTeam implements Team
{
    private final Team team;

    /**
     * Wraps a member.
     *
     * @param team the member.
     */
    public DelegatingTeam(final Team team)
    {
        this.team = team;
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
        team.barrier();
    }

    @Override
    public void lock(final int lockId)
    {
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
    public DoubleArray doubles(final String name, final int length, final Placement placement)
    {
        return team.doubles(name, length, placement);
    }

    @Override
    public FloatArray floats(final String name, final int length, final Placement placement)
    {
        return team.floats(name, length, placement);
    }

    @Override
    public LongArray longs(final String name, final int length, final Placement placement)
    {
        return team.longs(name, length, placement);
    }

    @Override
    public IntArray ints(final String name, final int length, final Placement placement)
    {
        return team.ints(name, length, placement);
    }

    @Override
    public ByteArray bytes(final String name, final int length, final Placement placement)
    {
        return team.bytes(name, length, placement);
    }

    @Override
    public PrintStream out()
    {
        return team.out();
    }
}
