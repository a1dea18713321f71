package org.viadsm.dsm;

import java.util.SplittableRandom;

import org.agrona.collections.Int2IntHashMap;
import org.viadsm.dsm.array.ByteReadView;
import org.viadsm.dsm.array.ByteView;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;
import org.viadsm.dsm.array.FloatReadView;
import org.viadsm.dsm.array.FloatView;
import org.viadsm.dsm.array.IntReadView;
import org.viadsm.dsm.array.IntView;
import org.viadsm.dsm.array.LongReadView;
import org.viadsm.dsm.array.LongView;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A random data-race-free program, derived from a seed, that checks every value it reads against a sequential
 * model of itself.
 * <p>
 * The program is a sequence of phases separated by barriers. In each phase a random set of elements of each array
 * is written, each element by the one node that owns it in that phase; nodes read random elements that no other
 * node writes in that phase, and their own writes. Every node derives the same write sets from the seed, so each
 * keeps a model of every array and knows what every read must return. Then, in some phases, nodes append entries
 * to lock-protected logs: inside the lock a node checks that it sees every entry appended before (a stale page
 * would show a zero), and after the barrier every node checks each log holds exactly the entries the program
 * appended, each node's in order.
 * <p>
 * Each array's writes in a phase follow one of three patterns, so that pages go through every sharing state:
 * random writers (several nodes write one page: multiple writers), home writers (each element written by its
 * page's home, or by its block's owner under first touch, and read by anyone: a page written only by its home and
 * then read elsewhere), and private phases (home writers, and each node reads only its own elements, so pages stay
 * cached nowhere but at home: exclusive, until a later phase shares them, and copies left unread long enough are
 * given up).
 * <p>
 * Accesses go through views as well as element by element: in each phase a node makes a read, an update and a
 * write view of random ranges of each array (re-wrapping the previous phase's, which expired at its barriers) and
 * uses them for the reads and writes they cover, at random; a write view is used only to write. Log entries are
 * read and appended through views made inside the lock.
 */
final class RandomDrfProgram
{
    private static final int RANDOM_WRITERS = 0;
    private static final int HOME_WRITERS = 1;
    private static final int PRIVATE = 2;
    private static final int LOG_GROUPS = 3;
    private static final int LOG_CAPACITY = 4096;

    private final long seed;
    private final int nodes;
    private final int phases;
    private final int opsPerPhase;
    private final int arrayCount;
    private final int[] types;
    private final int[] lengths;
    private final Placement[] placements;
    private int[][] owners;

    RandomDrfProgram(final long seed, final int nodes, final long targetOps)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        this.seed = seed;
        this.nodes = nodes;
        this.arrayCount = 1 + random.nextInt(3);
        this.types = new int[arrayCount];
        this.lengths = new int[arrayCount];
        this.placements = new Placement[arrayCount];
        for (int a = 0; a < arrayCount; a++)
        {
            types[a] = random.nextInt(5);
            lengths[a] = 1 + random.nextInt(6000);
            switch (random.nextInt(4))
            {
                case 0:
                    placements[a] = Placement.block();
                    break;
                case 1:
                    placements[a] = Placement.cyclic();
                    break;
                case 2:
                    placements[a] = Placement.firstTouch();
                    break;
                default:
                    placements[a] = Placement.onNode(random.nextInt(nodes));
                    break;
            }
        }
        this.opsPerPhase = 200 + random.nextInt(400);
        this.phases = (int)Math.max(2, Math.min(400, targetOps / ((long)opsPerPhase * nodes)));
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder("seed=" + seed + " nodes=" + nodes + " phases=" + phases +
            " opsPerPhase=" + opsPerPhase + " arrays=[");
        for (int a = 0; a < arrayCount; a++)
        {
            sb.append(a == 0 ? "" : ", ").append("long,int,byte,double,float".split(",")[types[a]])
                .append('[').append(lengths[a]).append("] ").append(placements[a]);
        }
        return sb.append(']').toString();
    }

    /** Runs the program as one node and returns the number of operations it checked. */
    long run(final Dsm dsm)
    {
        final int me = dsm.nodeId();
        final Object[] arrays = new Object[arrayCount];
        final long[][] model = new long[arrayCount][];
        for (int a = 0; a < arrayCount; a++)
        {
            arrays[a] = allocate(dsm, a);
            model[a] = new long[lengths[a]];
        }
        owners = owners(dsm, arrays);
        final SharedLongArray counts = dsm.allocLongs("log-counts", LOG_GROUPS, Placement.onNode(nodes - 1));
        final SharedLongArray logs = dsm.allocLongs("logs", LOG_GROUPS * LOG_CAPACITY, Placement.cyclic());
        final SharedLongArray mail = dsm.allocLongs("mail", nodes, Placement.block());
        final int[] expectedCounts = new int[LOG_GROUPS];
        final int[][] appendsPerNode = new int[LOG_GROUPS][nodes];
        final Int2IntHashMap mine = new Int2IntHashMap(-1);
        final Object[][] views = new Object[arrayCount][TypedViews.Mode.values().length];
        long ops = 0;
        dsm.barrier();
        for (int phase = 0; phase < phases; phase++)
        {
            for (int a = 0; a < arrayCount; a++)
            {
                ops += arrayPhase(me, phase, a, arrays[a], model[a], mine, views[a]);
            }
            dsm.barrier();
            for (int a = 0; a < arrayCount; a++)
            {
                applyPhase(phase, a, model[a]);
            }
            if (phase % 3 == 1)
            {
                ops += logPhase(dsm, phase, counts, logs, expectedCounts, appendsPerNode);
                dsm.barrier();
                ops += checkLogs(counts, logs, expectedCounts, appendsPerNode);
            }
            if (phase % 5 == 3 && nodes > 1)
            {
                ops += handOff(dsm, phase, mail);
                dsm.barrier();
            }
        }
        for (int a = 0; a < arrayCount; a++)
        {
            final Object whole = 0 == (a & 1) ? arrays[a] : TypedViews.read(arrays[a], 0, lengths[a], null);
            for (int e = 0; e < lengths[a]; e++)
            {
                assertEquals(expected(a, model[a][e]), read(whole, a, e), () -> "final check " + this);
                ops++;
            }
        }
        dsm.barrier();
        return ops;
    }

    private long arrayPhase(final int me, final int phase, final int a, final Object array, final long[] model,
        final Int2IntHashMap mine, final Object[] phaseViews)
    {
        mine.clear();
        final int written = writesInPhase(phase, a);
        final int pattern = pattern(phase, a);
        final SplittableRandom writes = random(phase, a, -1);
        final int[] owners = new int[written];
        final int[] elements = new int[written];
        final Int2IntHashMap owner = new Int2IntHashMap(-1);
        for (int w = 0; w < written; w++)
        {
            elements[w] = writes.nextInt(lengths[a]);
            owners[w] = writes.nextInt(nodes);
            if (RANDOM_WRITERS != pattern)
            {
                owners[w] = this.owners[a][elements[w]];
            }
            owner.put(elements[w], owners[w]);
        }
        final SplittableRandom local = random(phase, a, me);
        final SplittableRandom viewChoice = random(phase, a + 500, me);
        for (final TypedViews.Mode mode : TypedViews.Mode.values())
        {
            final int from = viewChoice.nextInt(lengths[a]);
            final int to = from + viewChoice.nextInt(lengths[a] - from + 1);
            phaseViews[mode.ordinal()] = TypedViews.view(mode, array, from, to, phaseViews[mode.ordinal()]);
        }
        long ops = 0;
        int nextWrite = 0;
        for (int op = 0; op < opsPerPhase; op++)
        {
            if (local.nextInt(3) == 0)
            {
                while (nextWrite < written && (owners[nextWrite] != me || owner.get(elements[nextWrite]) != me))
                {
                    nextWrite++;
                }
                if (nextWrite < written)
                {
                    final int e = elements[nextWrite];
                    final long value = valueOf(phase, a, e);
                    write(viewFor(viewChoice, phaseViews, e, true, array), a, e, value);
                    mine.put(e, nextWrite);
                    nextWrite++;
                    ops++;
                    continue;
                }
            }
            final int e = local.nextInt(lengths[a]);
            final int writer = owner.get(e);
            if ((writer >= 0 && writer != me) || (PRIVATE == pattern && this.owners[a][e] != me))
            {
                continue;
            }
            final long value = mine.containsKey(e) ? valueOf(phase, a, e) : model[e];
            final long got = read(viewFor(viewChoice, phaseViews, e, false, array), a, e);
            if (expected(a, value) != got)
            {
                assertEquals(expected(a, value), got, "phase " + phase + " array " + a + " element " + e +
                    " on node " + me + ": " + this);
            }
            ops++;
        }
        while (nextWrite < written)
        {
            if (owners[nextWrite] == me && owner.get(elements[nextWrite]) == me)
            {
                final int e = elements[nextWrite];
                write(viewFor(viewChoice, phaseViews, e, true, array), a, e, valueOf(phase, a, e));
                ops++;
            }
            nextWrite++;
        }
        return ops;
    }

    private void applyPhase(final int phase, final int a, final long[] model)
    {
        final int written = writesInPhase(phase, a);
        final SplittableRandom writes = random(phase, a, -1);
        final Int2IntHashMap owner = new Int2IntHashMap(-1);
        final int[] elements = new int[written];
        for (int w = 0; w < written; w++)
        {
            elements[w] = writes.nextInt(lengths[a]);
            owner.put(elements[w], writes.nextInt(nodes));
        }
        for (int w = 0; w < written; w++)
        {
            model[elements[w]] = valueOf(phase, a, elements[w]);
        }
    }

    private long logPhase(final Dsm dsm, final int phase, final SharedLongArray counts, final SharedLongArray logs,
        final int[] expectedCounts, final int[][] appendsPerNode)
    {
        final int me = dsm.nodeId();
        long ops = 0;
        for (int node = 0; node < nodes; node++)
        {
            final SplittableRandom r = random(phase, 1000, node);
            final int appends = r.nextInt(8);
            for (int k = 0; k < appends; k++)
            {
                final int group = r.nextInt(LOG_GROUPS);
                if (expectedCounts[group] + 1 > LOG_CAPACITY)
                {
                    continue;
                }
                expectedCounts[group]++;
                appendsPerNode[group][node]++;
                if (node != me)
                {
                    continue;
                }
                final DsmLock lock = dsm.lock(group);
                if (0 == (k & 1))
                {
                    lock.lock();
                }
                else
                {
                    while (!lock.tryLock())
                    {
                        Thread.onSpinWait();
                    }
                }
                final int t = (int)counts.get(group);
                final int first = group * LOG_CAPACITY;
                final LongReadView entries = 0 == (k & 2) ? logs.read(first, first + t) : null;
                for (int i = 0; i < t; i++)
                {
                    if (0 == (null == entries ? logs.get(first + i) : entries.get(first + i)))
                    {
                        throw new AssertionError("entry " + i + " of log " + group + " is stale: " + this);
                    }
                    ops++;
                }
                logs.update(first + t, first + t + 1).set(first + t, entry(me, appendsPerNode[group][me]));
                counts.set(group, t + 1);
                lock.unlock();
                ops += 3;
            }
        }
        return ops;
    }

    /** Node i writes its mailbox and posts semaphore i; node i + 1 waits on it and reads the mailbox. */
    private long handOff(final Dsm dsm, final int phase, final SharedLongArray mail)
    {
        final int me = dsm.nodeId();
        final int from = (me + nodes - 1) % nodes;
        mail.set(me, valueOf(phase, 999, me));
        dsm.semaphorePost(me);
        dsm.semaphoreWait(from);
        assertEquals(valueOf(phase, 999, from), mail.get(from), () -> "mailbox of node " + from + ": " + this);
        return 2;
    }

    private long checkLogs(final SharedLongArray counts, final SharedLongArray logs, final int[] expectedCounts,
        final int[][] appendsPerNode)
    {
        long ops = 0;
        for (int group = 0; group < LOG_GROUPS; group++)
        {
            assertEquals(expectedCounts[group], counts.get(group), "log " + group + " count: " + this);
            final int[] lastSeen = new int[nodes];
            for (int i = 0; i < expectedCounts[group]; i++)
            {
                final long entry = logs.get(group * LOG_CAPACITY + i);
                final int node = (int)(entry >>> 32) - 1;
                final int k = (int)entry;
                assertTrue(node >= 0 && node < nodes, "entry " + i + " of log " + group + " is " + entry);
                assertEquals(lastSeen[node] + 1, k, "node " + node + "'s entries in log " + group + " out of order");
                lastSeen[node] = k;
                ops++;
            }
            for (int node = 0; node < nodes; node++)
            {
                assertEquals(appendsPerNode[group][node], lastSeen[node], "entries of node " + node);
            }
        }
        return ops;
    }

    private Object allocate(final Dsm dsm, final int a)
    {
        final String name = "array" + a;
        switch (types[a])
        {
            case 0:
                return dsm.allocLongs(name, lengths[a], placements[a]);
            case 1:
                return dsm.allocInts(name, lengths[a], placements[a]);
            case 2:
                return dsm.allocBytes(name, lengths[a], placements[a]);
            case 3:
                return dsm.allocDoubles(name, lengths[a], placements[a]);
            default:
                return dsm.allocFloats(name, lengths[a], placements[a]);
        }
    }

    /**
     * A view that covers element {@code e} (and may be used for the access), or the array.
     */
    private static Object viewFor(
        final SplittableRandom choice, final Object[] phaseViews, final int e, final boolean write, final Object array)
    {
        final int pick = choice.nextInt(4);
        if (pick < 3 && (write ? pick != TypedViews.Mode.READ.ordinal() : pick != TypedViews.Mode.WRITE.ordinal()))
        {
            final Object view = phaseViews[pick];
            if (TypedViews.from(view) <= e && e < TypedViews.to(view))
            {
                return view;
            }
        }
        return array;
    }

    private void write(final Object array, final int a, final int e, final long value)
    {
        switch (array)
        {
            case LongView v -> v.set(e, value);
            case IntView v -> v.set(e, (int)value);
            case ByteView v -> v.set(e, (byte)value);
            case DoubleView v -> v.set(e, Double.longBitsToDouble(value));
            case FloatView v -> v.set(e, Float.intBitsToFloat((int)value));
            default -> writeElement(array, a, e, value);
        }
    }

    private void writeElement(final Object array, final int a, final int e, final long value)
    {
        switch (types[a])
        {
            case 0:
                ((SharedLongArray)array).set(e, value);
                break;
            case 1:
                ((SharedIntArray)array).set(e, (int)value);
                break;
            case 2:
                ((SharedByteArray)array).set(e, (byte)value);
                break;
            case 3:
                ((SharedDoubleArray)array).set(0 == (value & 16) ? e : 0, new double[] {Double.longBitsToDouble(value)},
                    0, 0 == (value & 16) ? 1 : 0);
                if (0 != (value & 16))
                {
                    ((SharedDoubleArray)array).range(e, e + 1).set(0, Double.longBitsToDouble(value));
                }
                break;
            default:
                ((SharedFloatArray)array).set(e, Float.intBitsToFloat((int)value));
                break;
        }
    }

    private long read(final Object array, final int a, final int e)
    {
        return switch (array)
        {
            case LongReadView v -> v.get(e);
            case IntReadView v -> v.get(e);
            case ByteReadView v -> v.get(e);
            case DoubleReadView v -> Double.doubleToRawLongBits(v.get(e));
            case FloatReadView v -> Float.floatToRawIntBits(v.get(e));
            default -> readElement(array, a, e);
        };
    }

    private long readElement(final Object array, final int a, final int e)
    {
        switch (types[a])
        {
            case 0:
                return ((SharedLongArray)array).get(e);
            case 1:
                return ((SharedIntArray)array).get(e);
            case 2:
                return ((SharedByteArray)array).get(e);
            case 3:
                final double[] one = new double[1];
                ((SharedDoubleArray)array).get(e, one, 0, 1);
                return Double.doubleToRawLongBits(0 == (e & 1) ? one[0] : ((SharedDoubleArray)array).range(e,
                    e + 1).get(0));
            default:
                return Float.floatToRawIntBits(((SharedFloatArray)array).get(e));
        }
    }

    private long expected(final int a, final long value)
    {
        switch (types[a])
        {
            case 1:
                return (int)value;
            case 2:
                return (byte)value;
            case 4:
                return (int)value;
            default:
                return value;
        }
    }

    /**
     * Who writes each element in the phases with one writer per page: the page's home, or under first touch the
     * owner of the element's block of the array (who becomes the home by touching it first).
     */
    private int[][] owners(final Dsm dsm, final Object[] arrays)
    {
        final int[][] result = new int[arrayCount][];
        for (int a = 0; a < arrayCount; a++)
        {
            result[a] = new int[lengths[a]];
            final int perPage = dsm.pageSize() / elementSize(a);
            for (int e = 0; e < lengths[a]; e++)
            {
                result[a][e] = "first-touch".equals(placements[a].toString()) ? (int)((long)e * nodes / lengths[a]) :
                    0 == e % perPage ? homeOf(arrays[a], a, e) : result[a][e - 1];
            }
        }
        return result;
    }

    private int homeOf(final Object array, final int a, final int e)
    {
        switch (types[a])
        {
            case 0:
                return ((SharedLongArray)array).homeOf(e);
            case 1:
                return ((SharedIntArray)array).homeOf(e);
            case 2:
                return ((SharedByteArray)array).homeOf(e);
            case 3:
                return ((SharedDoubleArray)array).homeOf(e);
            default:
                return ((SharedFloatArray)array).homeOf(e);
        }
    }

    private int elementSize(final int a)
    {
        return 2 == types[a] ? 1 : 0 == types[a] || 3 == types[a] ? 8 : 4;
    }

    private int pattern(final int phase, final int a)
    {
        return random(phase, a, -3).nextInt(3);
    }

    private int writesInPhase(final int phase, final int a)
    {
        return random(phase, a, -2).nextInt(Math.max(1, Math.min(lengths[a], opsPerPhase)));
    }

    private long valueOf(final int phase, final int a, final int e)
    {
        long h = seed * 0x9E3779B97F4A7C15L + phase * 0xC2B2AE3D27D4EB4FL + a * 0x165667B19E3779F9L + e;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return (h & 0x3FFFFFFFFFFFFFFFL & ~0x40000000L) | 1L;
    }

    private static long entry(final int node, final int k)
    {
        return (long)(node + 1) << 32 | k;
    }

    private SplittableRandom random(final int phase, final int a, final int node)
    {
        return new SplittableRandom(seed * 1_000_003L + phase * 7919L + a * 104_729L + node * 15_485_863L);
    }
}
