package org.viadsm.examples.runtime;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A team member that counts its barriers and lock acquisitions (by member id) and otherwise delegates, so tests can
 * check that a port synchronises as often as the C program does.
 */
public final class CountingTeam extends DelegatingTeam
{
    private final AtomicIntegerArray barriers;
    private final AtomicIntegerArray locks;

    /**
     * Wraps a member.
     *
     * @param team     the member.
     * @param barriers barrier counts, indexed by member id.
     * @param locks    lock acquisition counts, indexed by member id.
     */
    public CountingTeam(final Team team, final AtomicIntegerArray barriers, final AtomicIntegerArray locks)
    {
        super(team);
        this.barriers = barriers;
        this.locks = locks;
    }

    @Override
    public void barrier()
    {
        barriers.incrementAndGet(id());
        super.barrier();
    }

    @Override
    public void lock(final int lockId)
    {
        locks.incrementAndGet(id());
        super.lock(lockId);
    }
}
