package org.viadsm.dsm;

import org.viadsm.dsm.array.LongReadView;
import org.viadsm.dsm.array.LongView;

/**
 * The warm-up a node runs as it joins when {@link DsmContext#warmup(boolean)} is on: every node of the cluster takes
 * the protocol's per-operation paths through the public API often enough that the JIT compiles them with its
 * optimising compiler (C2 compiles a method without loops after some 5 000 invocations, more while its queue is
 * long) before the program starts. A program calls these paths only a few hundred or thousand times a run; each node
 * is its own JVM, so without the warm-up they are compiled during the program's later runs, and one node's compile
 * takes the CPU its peer waits for at the next barrier.
 * <p>
 * Node {@code n} pairs with {@code p = (n + 1) mod N}. Each round it writes word {@code r mod 2} of its own
 * {@link #PAGES} pages (home writes), reads word {@code (r - 1) mod 2} of its peer's (a read miss each, since the
 * peer's writes of the last round invalidated them), writes word 2 of each (a write fault and a twin each), then
 * takes {@link #LOCKS_PER_ROUND} locks in turn, each managed by another node in turn, writing word 3 of a peer's page
 * under each (a twin and a diff at the unlock); adds to word 5 of node 0's first page atomically; goes over the
 * peer's pages with a read and an update view (word 2) and its own with a write view (word 4); and ends at a
 * barrier. Only node {@code n} writes words 2 and 3 of its peer's pages, and the home's words 0 and 1 are read a
 * barrier after they were written: the warm-up is free of data races, and checks what it reads.
 * <p>
 * It runs in passes of {@link #ROUNDS_PER_PASS} rounds, at least {@link #MIN_PASSES} (per node some 6 400 read misses,
 * 9 600 write faults and twins, 3 200 lock acquires, 20 000 RDMA operations), and another while any node's JIT
 * finished a compilation in the last pass (its queue is still working through the paths), at most
 * {@link #MAX_PASSES}: each node votes with an atomic add to a word of the pass, read by all after the pass's last
 * barrier, so that all agree.
 * <p>
 * At the end each node takes and releases the warm-up's locks it manages, so that they rest there as a lock nobody
 * took would, the scratch array is freed (collectively, which is a barrier), and the join resets the statistics.
 * Every wait in it is the DSM's own, with its timeouts and failure detection: a node lost meanwhile fails the join
 * naming it.
 */
final class NodeWarmup
{
    /** Rounds of a pass, each ending at a barrier. */
    static final int ROUNDS_PER_PASS = 100;
    /** Passes every warm-up runs. */
    static final int MIN_PASSES = 4;
    /** Passes a warm-up runs at most. */
    static final int MAX_PASSES = 8;
    /** Pages each node is home of in the scratch array. */
    static final int PAGES = 16;
    /** Lock acquires per node and round. */
    static final int LOCKS_PER_ROUND = 8;
    /** The scratch array's name; a program may allocate the name again after the join. */
    static final String ARRAY_NAME = "viadsm.warmup";

    private static final int READ_WORDS = 2;
    private static final int FAULT_WORD = 2;
    private static final int LOCKED_WORD = 3;
    private static final int VIEW_WORD = 4;
    private static final int ATOMIC_WORD = 5;
    private static final int FIRST_VOTE_WORD = 6;

    private final Dsm dsm;
    private final SharedLongArray pages;
    private final int words;
    private final int own;
    private final int peer;
    private final int peers;
    private final int maxLocks;
    private LongView view;
    private LongReadView readView;

    private NodeWarmup(final Dsm dsm)
    {
        this.dsm = dsm;
        final int nodes = dsm.nodeCount();
        this.words = dsm.pageSize() / Long.BYTES;
        this.peer = (dsm.nodeId() + 1) % nodes;
        this.own = dsm.nodeId() * PAGES * words;
        this.peers = peer * PAGES * words;
        this.maxLocks = dsm.context().protocol().maxLocks();
        this.pages = dsm.allocLongs(ARRAY_NAME, nodes * PAGES * words, Placement.block());
    }

    /**
     * Runs the warm-up on every node; collective. A cluster of one node has no remote paths to warm, and returns.
     *
     * @param dsm a node that passed the joining barrier.
     * @return the rounds it ran.
     * @throws DsmException if a node fails or the cluster stops meanwhile.
     */
    static int run(final Dsm dsm)
    {
        return dsm.nodeCount() < 2 ? 0 : new NodeWarmup(dsm).passes();
    }

    private int passes()
    {
        int round = 0;
        for (int pass = 0; pass < MAX_PASSES; pass++)
        {
            final long compiledNs = NodeStatistics.jvmCompilationNs();
            for (int i = 0; i < ROUNDS_PER_PASS; i++)
            {
                round(round++);
            }
            final boolean more = pass + 1 < MIN_PASSES || NodeStatistics.jvmCompilationNs() > compiledNs;
            if (more)
            {
                pages.getAndAdd(FIRST_VOTE_WORD + pass, 1);
            }
            dsm.barrier();
            if (0 == pages.getVolatile(FIRST_VOTE_WORD + pass))
            {
                break;
            }
        }
        // Past the last barrier nobody takes a warm-up lock but its manager: each comes to rest there, released,
        // so that a program's first acquire of it counts and waits as that of a lock nobody took.
        final int nodes = dsm.nodeCount();
        for (int i = 0; i < Math.min(nodes, maxLocks); i++)
        {
            if (lockId(i) % nodes == dsm.nodeId())
            {
                dsm.lock(lockId(i)).lock();
                dsm.lock(lockId(i)).unlock();
            }
        }
        final long sum = pages.getVolatile(ATOMIC_WORD);
        if (sum != (long)round * dsm.nodeCount())
        {
            throw new IllegalStateException("warm-up: the atomic word holds " + sum + ", not " +
                (long)round * dsm.nodeCount());
        }
        dsm.free(pages);
        return round;
    }

    /** The warm-up's lock {@code i}: lock m is managed by node m mod N, so the ids go over every manager. */
    private int lockId(final int i)
    {
        return maxLocks - 1 - i;
    }

    private void round(final int round)
    {
        for (int page = 0; page < PAGES; page++)
        {
            pages.set(own + page * words + round % READ_WORDS, round);
        }
        for (int page = 0; page < PAGES; page++)
        {
            final int at = peers + page * words;
            final long read = pages.get(at + (round + 1) % READ_WORDS);
            if (round > 0 && read != round - 1)
            {
                throw new IllegalStateException("warm-up: node " + peer + "'s page " + page + " holds " + read +
                    " in round " + round);
            }
            pages.set(at + FAULT_WORD, round);
        }
        final int nodes = dsm.nodeCount();
        for (int i = 0; i < LOCKS_PER_ROUND; i++)
        {
            final DsmLock lock = dsm.lock(lockId((dsm.nodeId() + i) % Math.min(nodes, maxLocks)));
            lock.lock();
            try
            {
                pages.set(peers + (i % PAGES) * words + LOCKED_WORD, round * LOCKS_PER_ROUND + i);
            }
            finally
            {
                lock.unlock();
            }
        }
        pages.getAndAdd(ATOMIC_WORD, 1);
        readView = pages.read(peers, peers + PAGES * words, readView);
        view = pages.update(peers, peers + PAGES * words, view);
        view.set(peers + FAULT_WORD, readView.get(peers + FAULT_WORD) + 1);
        view = pages.write(own, own + PAGES * words, view);
        view.set(own + VIEW_WORD, round);
        dsm.barrier();
    }
}
