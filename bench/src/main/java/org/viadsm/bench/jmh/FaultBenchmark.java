package org.viadsm.bench.jmh;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.viadsm.bench.BenchCase;
import org.viadsm.dsm.Dsm;
import org.viadsm.dsm.DsmContext;
import org.viadsm.dsm.DsmLock;
import org.viadsm.dsm.Placement;
import org.viadsm.dsm.SharedDoubleArray;
import org.viadsm.dsm.launch.LocalCluster;

/**
 * The DSM's fault and release paths on two nodes of one JVM (the jvm provider), node 0 measured and node 1 the home
 * of every page, parked while node 0 works (RDMA is one-sided): a read fault (the page fetched from its home by
 * RDMA Read), and a write fault with its release (twin; at unlock the diff, one RDMA Write of the changed word
 * home, the write notice and the lock's release, lock 0 being managed and cached at node 0). Baseline: the copy of
 * a 4 KiB page between two direct buffers.
 * <p>
 * Run {@code viadsm bench jmh FaultBenchmark -prof gc}: the operations allocate nothing ({@code gc.alloc.rate.norm}
 * 0 B/op). A read fault needs an invalid page: each iteration of {@link #readFault} is one invocation that faults
 * each of {@value #PAGES} pages once, after node 1 wrote them and both passed a barrier. That set-up's allocation
 * counts in the iteration's {@code gc.alloc.rate.norm}, so {@link #readFault} also reports the faulting thread's
 * own bytes per fault ({@code faultThreadBytesPerOp}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED")
public class FaultBenchmark
{
    /** Pages of the array, each read-faulted once per iteration of {@link #readFault}. */
    static final int PAGES = 4096;

    private static final int PAGE_DOUBLES = 4096 / Double.BYTES;
    private static final int HOME = 1;

    /**
     * The two nodes: node 0 on the benchmark's thread, node 1 on a thread of its own that writes every page when
     * asked and otherwise stays parked.
     */
    @State(Scope.Thread)
    public static class Cluster
    {
        SharedDoubleArray array;
        DsmLock lock;
        private Dsm dsm;
        private Thread home;
        private CompletableFuture<Void> homeDone;
        private volatile int requested;
        private volatile int served;
        private volatile boolean stop;

        /**
         * Creates the state; JMH sets it up.
         */
        public Cluster()
        {
        }

        /**
         * Joins both nodes, allocates the array (every page homed at node 1) and makes each page valid at node 0.
         */
        @Setup(Level.Trial)
        public void setUp()
        {
            final List<String> addresses = LocalCluster.addresses("jvm", 2);
            homeDone = new CompletableFuture<>();
            home = new Thread(() -> runHome(addresses), "fault-benchmark-home");
            home.setDaemon(true);
            home.start();
            dsm = Dsm.join(new DsmContext().nodeId(0).addresses(addresses));
            array = allocate(dsm);
            lock = dsm.lock(0);
            double sum = 0;
            for (int page = 0; page < PAGES; page++)
            {
                sum += array.get(page * PAGE_DOUBLES);
            }
            dsm.barrier();
            if (0 != sum)
            {
                throw new IllegalStateException("a fresh array holds " + sum);
            }
        }

        /**
         * Before each iteration of {@link #readFault}: makes every page invalid at node 0 (node 1 writes one word of
         * each, and both pass a barrier). A set-up of this state, not of a state of its own, so that it acts on the
         * nodes the benchmark uses.
         *
         * @param params which benchmark runs.
         */
        @Setup(Level.Iteration)
        public void invalidate(final BenchmarkParams params)
        {
            if (!params.getBenchmark().endsWith(".readFault"))
            {
                return;
            }
            requested++;
            LockSupport.unpark(home);
            dsm.barrier();
        }

        /**
         * Stops node 1 and leaves the cluster.
         */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            stop = true;
            LockSupport.unpark(home);
            dsm.close();
            homeDone.join();
        }

        private void runHome(final List<String> addresses)
        {
            try (Dsm node = Dsm.join(new DsmContext().nodeId(HOME).addresses(addresses)))
            {
                final SharedDoubleArray pages = allocate(node);
                node.barrier();
                while (true)
                {
                    while (requested == served && !stop)
                    {
                        LockSupport.park(this);
                    }
                    if (requested == served)
                    {
                        break;
                    }
                    served++;
                    for (int page = 0; page < PAGES; page++)
                    {
                        pages.set(page * PAGE_DOUBLES, served);
                    }
                    node.barrier();
                }
                homeDone.complete(null);
            }
            catch (final RuntimeException ex)
            {
                homeDone.completeExceptionally(ex);
            }
        }

        private static SharedDoubleArray allocate(final Dsm node)
        {
            return node.allocDoubles("fault.pages", PAGES * PAGE_DOUBLES, Placement.onNode(HOME));
        }
    }

    /**
     * The bytes the thread taking the read faults allocated per fault in an iteration, read from the JVM's
     * per-thread allocation counter around the faults: {@code gc.alloc.rate.norm} also counts what the iteration's
     * set-up allocates (node 1's writes and the barrier) and the other threads.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class FaultThreadAllocation
    {
        /** Bytes per read fault allocated by the faulting thread. */
        public double faultThreadBytesPerOp;

        /**
         * Creates the counters; JMH sets them up.
         */
        public FaultThreadAllocation()
        {
        }

        /**
         * Forgets the last iteration's figure.
         */
        @Setup(Level.Iteration)
        public void clear()
        {
            faultThreadBytesPerOp = 0;
        }
    }

    /**
     * Two direct buffers, for the baseline.
     */
    @State(Scope.Thread)
    public static class Buffers
    {
        final UnsafeBuffer from = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(PAGES * 4096));
        final UnsafeBuffer to = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(4096));
        int next;

        /**
         * Creates the state; JMH sets it up.
         */
        public Buffers()
        {
        }
    }

    /**
     * Creates the benchmark; JMH runs it.
     */
    public FaultBenchmark()
    {
    }

    /**
     * Read faults: the first read of each of {@value #PAGES} pages invalid at node 0, fetched from node 1; one
     * invocation per iteration, one operation per page.
     *
     * @param cluster    the nodes.
     * @param allocation the faulting thread's allocation, reported per fault.
     * @return the sum of the elements read.
     */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OperationsPerInvocation(PAGES)
    @Warmup(iterations = 5)
    @Measurement(iterations = 10)
    public double readFault(final Cluster cluster, final FaultThreadAllocation allocation)
    {
        final SharedDoubleArray array = cluster.array;
        final long startBytes = BenchCase.allocatedBytes();
        double sum = 0;
        for (int page = 0; page < PAGES; page++)
        {
            sum += array.get(page * PAGE_DOUBLES);
        }
        allocation.faultThreadBytesPerOp = (double)(BenchCase.allocatedBytes() - startBytes) / PAGES;
        return sum;
    }

    /**
     * A write fault and its release: lock 0 (cached at node 0), the first write of the interval to a valid page
     * homed at node 1 (twin), unlock (diff, RDMA Write home, write notice, release). Pages rotate over all of them.
     *
     * @param cluster the nodes.
     * @param pages   which page is next.
     */
    @Benchmark
    public void writeFaultAndRelease(final Cluster cluster, final Buffers pages)
    {
        final int page = pages.next;
        pages.next = page + 1 == PAGES ? 0 : page + 1;
        cluster.lock.lock();
        try
        {
            cluster.array.set(page * PAGE_DOUBLES + 1, page);
        }
        finally
        {
            cluster.lock.unlock();
        }
    }

    /**
     * Baseline: the copy of a 4 KiB page from a 16 MiB buffer, pages in order.
     *
     * @param buffers the buffers.
     * @return a byte of the copy.
     */
    @Benchmark
    public byte pageCopy(final Buffers buffers)
    {
        final int page = buffers.next;
        buffers.next = page + 1 == PAGES ? 0 : page + 1;
        buffers.to.putBytes(0, buffers.from, page * 4096, 4096);
        return buffers.to.getByte(page & 4095);
    }
}
