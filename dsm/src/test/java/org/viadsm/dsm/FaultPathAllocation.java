package org.viadsm.dsm;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.viadsm.dsm.launch.LocalCluster;

/**
 * What the fault and release paths allocate, for {@link FaultPathAllocationTest}: on two jvm-provider nodes of this
 * JVM, node 0 (the main thread) read-faults every page of an array homed at node 1, then takes a cached lock,
 * write-faults the page and releases the lock, page by page; node 1 invalidates the pages between rounds (one write
 * each and a barrier). After {@value #WARM_UP_ROUNDS} rounds to warm up, it prints the bytes the main thread
 * allocated in {@value #ROUNDS} rounds of {@value #PAGES} pages, read from the JVM's per-thread allocation counter
 * around each operation: {@code allocated R W U L bytes by N read faults, write faults, releases, lock acquires}.
 */
public final class FaultPathAllocation
{
    static final int PAGES = 1000;
    static final int WARM_UP_ROUNDS = 20;
    static final int ROUNDS = 10;
    private static final int PAGE_DOUBLES = 4096 / Double.BYTES;
    private static final int HOME = 1;

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    /** Bytes the main thread allocated: read faults, write faults, releases, lock acquires. */
    private final long[] bytes = new long[4];

    private FaultPathAllocation()
    {
    }

    public static void main(final String[] args)
    {
        final List<String> addresses = LocalCluster.addresses("jvm", 2);
        final CompletableFuture<Void> home = CompletableFuture.runAsync(() -> runHome(addresses));
        final FaultPathAllocation measure = new FaultPathAllocation();
        final long operations = (long)PAGES * ROUNDS;
        try (Dsm dsm = Dsm.join(new DsmContext().nodeId(0).addresses(addresses)))
        {
            final SharedDoubleArray array = allocate(dsm);
            final DsmLock lock = dsm.lock(0);
            for (int round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++)
            {
                if (WARM_UP_ROUNDS == round)
                {
                    Arrays.fill(measure.bytes, 0);
                    dsm.resetStats();
                }
                dsm.barrier();
                measure.faultAndRelease(array, lock, round + 1);
                dsm.barrier();
            }
            final DsmStats stats = dsm.stats();
            if (operations != stats.get(Statistic.READ_FAULTS) || operations != stats.get(Statistic.WRITE_FAULTS))
            {
                throw new IllegalStateException("expected " + operations + " read and write faults: " + stats);
            }
        }
        home.join();
        System.out.println("allocated " + measure.bytes[0] + " " + measure.bytes[1] + " " + measure.bytes[2] + " " +
            measure.bytes[3] + " bytes by " + operations + " read faults, write faults, releases, lock acquires");
    }

    /** Reads every page (a read fault each), then locks, writes (a write fault) and unlocks (a release) each. */
    private void faultAndRelease(final SharedDoubleArray array, final DsmLock lock, final int round)
    {
        final long threadId = Thread.currentThread().threadId();
        long start = THREADS.getThreadAllocatedBytes(threadId);
        double sum = 0;
        for (int page = 0; page < PAGES; page++)
        {
            sum += array.get(page * PAGE_DOUBLES);
        }
        bytes[0] += THREADS.getThreadAllocatedBytes(threadId) - start;
        if ((double)round * PAGES != sum)
        {
            throw new IllegalStateException("round " + round + " read " + sum + ", not node 1's writes");
        }
        for (int page = 0; page < PAGES; page++)
        {
            start = THREADS.getThreadAllocatedBytes(threadId);
            lock.lock();
            final long locked = THREADS.getThreadAllocatedBytes(threadId);
            array.set(page * PAGE_DOUBLES + 1, page);
            final long written = THREADS.getThreadAllocatedBytes(threadId);
            lock.unlock();
            final long released = THREADS.getThreadAllocatedBytes(threadId);
            bytes[3] += locked - start;
            bytes[1] += written - locked;
            bytes[2] += released - written;
        }
    }

    private static void runHome(final List<String> addresses)
    {
        try (Dsm node = Dsm.join(new DsmContext().nodeId(HOME).addresses(addresses)))
        {
            final SharedDoubleArray pages = allocate(node);
            for (int round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++)
            {
                for (int page = 0; page < PAGES; page++)
                {
                    pages.set(page * PAGE_DOUBLES, round + 1);
                }
                node.barrier();
                node.barrier();
            }
        }
    }

    private static SharedDoubleArray allocate(final Dsm node)
    {
        return node.allocDoubles("pages", PAGES * PAGE_DOUBLES, Placement.onNode(HOME));
    }
}
