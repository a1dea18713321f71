package org.viadsm.examples.runtime;

import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Consumer;

import org.viadsm.dsm.Placement;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.LongArray;

/**
 * Watches a team run: counts every member's barriers, locks and pauses, keeps the shared int, long and double
 * arrays by name, and can act on them when member 0 prints a given text (e.g. corrupt the result after the
 * computation, before the self-check). Pass {@link #wrap(Team)} as the decorator of {@link AppHarness#attempt}.
 */
public final class TeamProbe
{
    private static final int MAX_MEMBERS = 64;

    private final AtomicIntegerArray barriers = new AtomicIntegerArray(MAX_MEMBERS);
    private final AtomicIntegerArray locks = new AtomicIntegerArray(MAX_MEMBERS);
    private final AtomicIntegerArray setPauses = new AtomicIntegerArray(MAX_MEMBERS);
    private final AtomicIntegerArray waitPauses = new AtomicIntegerArray(MAX_MEMBERS);
    private final Map<String, Object> arrays = new ConcurrentHashMap<>();
    private volatile String trigger;
    private volatile Consumer<Map<String, Object>> action;

    /**
     * Runs {@code action} on the shared arrays, once, when member 0 first prints text containing {@code text}.
     *
     * @param text   what to wait for.
     * @param action what to do, given the arrays by name.
     * @return this.
     */
    public TeamProbe onOutput(final String text, final Consumer<Map<String, Object>> action)
    {
        this.trigger = text;
        this.action = action;
        return this;
    }

    /**
     * Wraps a member's team.
     *
     * @param team the member.
     * @return the watched member.
     */
    public Team wrap(final Team team)
    {
        return new ProbedTeam(team);
    }

    /**
     * Barriers member {@code id} passed.
     *
     * @param id the member.
     * @return the count.
     */
    public int barriers(final int id)
    {
        return barriers.get(id);
    }

    /**
     * Locks member {@code id} acquired.
     *
     * @param id the member.
     * @return the count.
     */
    public int locks(final int id)
    {
        return locks.get(id);
    }

    /**
     * Pauses member {@code id} set.
     *
     * @param id the member.
     * @return the count.
     */
    public int setPauses(final int id)
    {
        return setPauses.get(id);
    }

    /**
     * Pauses member {@code id} waited for.
     *
     * @param id the member.
     * @return the count.
     */
    public int waitPauses(final int id)
    {
        return waitPauses.get(id);
    }

    private final class ProbedTeam extends DelegatingTeam
    {
        private final PrintStream out;

        ProbedTeam(final Team team)
        {
            super(team);
            this.out = 0 == team.id() ? new TriggerStream(team.out()) : team.out();
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

        @Override
        public void setPause(final int pauseId)
        {
            setPauses.incrementAndGet(id());
            super.setPause(pauseId);
        }

        @Override
        public void waitPause(final int pauseId)
        {
            waitPauses.incrementAndGet(id());
            super.waitPause(pauseId);
        }

        @Override
        public DoubleArray doubles(final String name, final int length, final Placement placement)
        {
            return keep(name, super.doubles(name, length, placement));
        }

        @Override
        public LongArray longs(final String name, final int length, final Placement placement)
        {
            return keep(name, super.longs(name, length, placement));
        }

        @Override
        public IntArray ints(final String name, final int length, final Placement placement)
        {
            return keep(name, super.ints(name, length, placement));
        }

        @Override
        public PrintStream out()
        {
            return out;
        }

        private <T> T keep(final String name, final T array)
        {
            arrays.put(name, array);
            return array;
        }
    }

    private final class TriggerStream extends PrintStream
    {
        private boolean fired;

        TriggerStream(final PrintStream delegate)
        {
            super(delegate, true);
        }

        @Override
        public void print(final String text)
        {
            final String wanted = trigger;
            if (!fired && null != wanted && text.contains(wanted))
            {
                fired = true;
                action.accept(arrays);
            }
            super.print(text);
        }
    }
}
