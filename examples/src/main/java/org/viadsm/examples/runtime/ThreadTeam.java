package org.viadsm.examples.runtime;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import org.viadsm.dsm.Placement;
import org.viadsm.dsm.array.ByteArray;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.FloatArray;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.LongArray;

/**
 * A team of Java threads sharing plain arrays: the sequential (one member) and threaded baselines.
 */
public final class ThreadTeam
{
    private final int size;
    private final PrintStream out;
    private final CyclicBarrier barrier;
    private final Map<Integer, ReentrantLock> locks = new ConcurrentHashMap<>();
    private final Map<Integer, Semaphore> pauses = new ConcurrentHashMap<>();
    private final Map<String, Allocation> allocations = new ConcurrentHashMap<>();
    private volatile Throwable failure;
    private volatile int failedMember = -1;

    private ThreadTeam(final int size, final PrintStream out)
    {
        this.size = size;
        this.out = out;
        this.barrier = new CyclicBarrier(size);
    }

    /**
     * Runs {@code body} on {@code size} members: member 0 on the calling thread, the others on new threads.
     *
     * @param size number of members, at least 1.
     * @param out  where member 0 prints.
     * @param body what every member runs.
     * @throws TeamFailure naming the first member that failed, with its exception as the cause.
     */
    public static void run(final int size, final PrintStream out, final TeamBody body)
    {
        if (size < 1)
        {
            throw new IllegalArgumentException("team size must be at least 1: size=" + size);
        }
        final ThreadTeam team = new ThreadTeam(size, out);
        final Thread[] threads = new Thread[size];
        for (int id = 1; id < size; id++)
        {
            final Member member = team.new Member(id);
            threads[id] = new Thread(() -> member.runBody(body), "team-" + id);
            threads[id].setDaemon(true);
            threads[id].start();
        }
        team.new Member(0).runBody(body);
        for (int id = 1; id < size; id++)
        {
            try
            {
                threads[id].join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new TeamFailure(0, ex);
            }
        }
        if (null != team.failure)
        {
            throw new TeamFailure(team.failedMember, team.failure);
        }
    }

    private synchronized void fail(final int member, final Throwable ex)
    {
        if (null == failure)
        {
            failure = ex;
            failedMember = member;
        }
        barrier.reset();
    }

    private <T> T allocate(final String name, final String type, final int length, final Supplier<T> factory)
    {
        final Allocation allocation = allocations.computeIfAbsent(
            name, k -> new Allocation(type, length, factory.get()));
        if (!allocation.type.equals(type) || allocation.length != length)
        {
            throw new IllegalStateException("allocation mismatch for '" + name + "': " + allocation.type + "[" +
                allocation.length + "] versus " + type + "[" + length + "]");
        }
        @SuppressWarnings("unchecked")
        final T array = (T)allocation.array;
        return array;
    }

    private static final class Allocation
    {
        final String type;
        final int length;
        final Object array;

        Allocation(final String type, final int length, final Object array)
        {
            this.type = type;
            this.length = length;
            this.array = array;
        }
    }

    private final class Member implements Team
    {
        private final int id;
        private final PrintStream memberOut;

        Member(final int id)
        {
            this.id = id;
            this.memberOut = 0 == id ? out : new PrintStream(OutputStream.nullOutputStream());
        }

        void runBody(final TeamBody body)
        {
            try
            {
                body.run(this);
            }
            catch (final Throwable ex)
            {
                fail(id, ex);
            }
        }

        @Override
        public int id()
        {
            return id;
        }

        @Override
        public int size()
        {
            return size;
        }

        @Override
        public void barrier()
        {
            try
            {
                barrier.await();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("member " + id + " interrupted at a barrier", ex);
            }
            catch (final BrokenBarrierException ex)
            {
                throw new IllegalStateException("barrier broken: member " + failedMember + " failed", ex);
            }
        }

        @Override
        public void lock(final int lockId)
        {
            locks.computeIfAbsent(lockId, k -> new ReentrantLock()).lock();
        }

        @Override
        public void unlock(final int lockId)
        {
            final ReentrantLock lock = locks.get(lockId);
            if (null == lock)
            {
                throw new IllegalMonitorStateException("lock " + lockId + " is not held by member " + id);
            }
            lock.unlock();
        }

        @Override
        public void setPause(final int pauseId)
        {
            pauses.computeIfAbsent(pauseId, k -> new Semaphore(0)).release();
        }

        @Override
        public void waitPause(final int pauseId)
        {
            pauses.computeIfAbsent(pauseId, k -> new Semaphore(0)).acquireUninterruptibly();
        }

        @Override
        public void clearPause(final int pauseId)
        {
        }

        @Override
        public DoubleArray doubles(final String name, final int length, final Placement placement)
        {
            return allocate(name, "double", length, () -> DoubleArray.allocate(length));
        }

        @Override
        public FloatArray floats(final String name, final int length, final Placement placement)
        {
            return allocate(name, "float", length, () -> FloatArray.allocate(length));
        }

        @Override
        public LongArray longs(final String name, final int length, final Placement placement)
        {
            return allocate(name, "long", length, () -> LongArray.allocate(length));
        }

        @Override
        public IntArray ints(final String name, final int length, final Placement placement)
        {
            return allocate(name, "int", length, () -> IntArray.allocate(length));
        }

        @Override
        public ByteArray bytes(final String name, final int length, final Placement placement)
        {
            return allocate(name, "byte", length, () -> ByteArray.allocate(length));
        }

        @Override
        public PrintStream out()
        {
            return memberOut;
        }
    }
}
