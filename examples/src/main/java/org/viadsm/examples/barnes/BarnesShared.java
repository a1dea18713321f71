package org.viadsm.examples.barnes;

import java.util.function.IntUnaryOperator;

import org.viadsm.dsm.Placement;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.LongArray;
import org.viadsm.examples.runtime.Team;

/**
 * Every shared array of a run, allocated collectively in the C's {@code G_MALLOC} order ({@code bodytab} in
 * {@code testdata}, {@code Global} in {@code ANLinit}, then {@code tab_init}'s cell and leaf pools and the
 * per-processor pointer tables), with the C's table sizes. The C allocates one cell pool and one leaf pool per
 * processor, interleaved; here each kind is one array of per-processor regions (see {@link NodeLayout}).
 */
final class BarnesShared
{
    final int nbody;
    final int nproc;
    final int maxleaf;
    final int maxcell;
    final int maxmybody;
    final int maxmycell;
    final int maxmyleaf;

    final DoubleArray bodies;
    final IntArray bodyInts;
    final DoubleArray global;
    final LongArray counts;
    final DoubleArray cells;
    final IntArray cellInts;
    final DoubleArray leaves;
    final IntArray leafInts;
    /** {@code Local[0].mybodytab}: {@code maxmybody} body refs per processor. */
    final IntArray mybodytab;
    /** {@code Local[0].mycelltab}: {@code maxmycell} cell refs per processor. */
    final IntArray mycelltab;
    /** {@code Local[0].myleaftab}: {@code maxmyleaf} leaf refs per processor. */
    final IntArray myleaftab;
    /** Which cell lock guards each cell and leaf. */
    final CellLocks locks;

    private BarnesShared(final Team team, final BarnesParameters params)
    {
        nbody = params.nbody;
        nproc = team.size();
        final long leafCount = (long)(params.fleaves * nbody);
        final long cellCount = (long)(params.fcells * leafCount);
        maxleaf = checked("maxleaf (fleaves * nbody)", leafCount);
        maxcell = checked("maxcell (fcells * maxleaf)", cellCount);
        maxmybody = checked("maxmybody", (nbody + leafCount * LeafLayout.MAX_BODIES_PER_LEAF) / nproc);
        maxmycell = maxcell / nproc;
        maxmyleaf = maxleaf / nproc;
        locks = new CellLocks(nproc);
        if (maxmycell < 1 || maxmyleaf < 1)
        {
            throw new IllegalArgumentException("fcells and fleaves leave no cell or leaf per processor: maxcell=" +
                maxcell + ", maxleaf=" + maxleaf + ", processors=" + nproc);
        }

        // Bodies change processors with the cost zones every step: they are spread evenly. Every processor's cell
        // and leaf pools and tables live with it, the globals with the master.
        final int procs = nproc;
        final int bodyCount = nbody;
        final IntUnaryOperator bodyOwner = body -> (int)((long)body * procs / bodyCount);
        bodies = team.doubles("barnes.bodies", size(nbody, BodyLayout.REAL_STRIDE),
            Placement.byElement(element -> bodyOwner.applyAsInt(element / BodyLayout.REAL_STRIDE)));
        bodyInts = team.ints("barnes.bodies.ints", size(nbody, BodyLayout.INT_STRIDE),
            Placement.byElement(element -> bodyOwner.applyAsInt(element / BodyLayout.INT_STRIDE)));
        global = team.doubles("barnes.global", GlobalLayout.LENGTH, Placement.onNode(0));
        counts = team.longs("barnes.global.counts", GlobalLayout.COUNTS_LENGTH, Placement.onNode(0));
        final long cellTotal = (long)maxmycell * nproc;
        final long leafTotal = (long)maxmyleaf * nproc;
        cells = team.doubles("barnes.cells", size(cellTotal, NodeLayout.REAL_STRIDE),
            pools(NodeLayout.REAL_STRIDE * maxmycell));
        cellInts = team.ints("barnes.cells.ints", size(cellTotal, CellLayout.INT_STRIDE),
            pools(CellLayout.INT_STRIDE * maxmycell));
        leaves = team.doubles("barnes.leaves", size(leafTotal, NodeLayout.REAL_STRIDE),
            pools(NodeLayout.REAL_STRIDE * maxmyleaf));
        leafInts = team.ints("barnes.leaves.ints", size(leafTotal, LeafLayout.INT_STRIDE),
            pools(LeafLayout.INT_STRIDE * maxmyleaf));
        mybodytab = team.ints("barnes.mybodytab", size((long)maxmybody * nproc, 1), pools(maxmybody));
        mycelltab = team.ints("barnes.mycelltab", size(cellTotal, 1), pools(maxmycell));
        myleaftab = team.ints("barnes.myleaftab", size(leafTotal, 1), pools(maxmyleaf));
    }

    /**
     * Processor {@code i}'s region {@code [i * perProcessor, (i + 1) * perProcessor)} at processor {@code i}.
     */
    private Placement pools(final long perProcessor)
    {
        final int last = nproc - 1;
        return Placement.byElement(element -> (int)Math.min(last, element / perProcessor));
    }

    /**
     * Collectively allocates the arrays; every member calls it with the same parameters.
     */
    static BarnesShared allocate(final Team team, final BarnesParameters params)
    {
        return new BarnesShared(team, params);
    }

    /**
     * Checks that the tables fit Java arrays for {@code teamSize} processors, before anything is allocated.
     */
    static void checkSizes(final BarnesParameters params, final int teamSize)
    {
        final long leafCount = (long)(params.fleaves * params.nbody);
        final long cellCount = (long)(params.fcells * leafCount);
        size(params.nbody, BodyLayout.REAL_STRIDE);
        size(cellCount, CellLayout.INT_STRIDE);
        size(leafCount, LeafLayout.INT_STRIDE);
        size(params.nbody + leafCount * LeafLayout.MAX_BODIES_PER_LEAF, 1);
        if (cellCount / teamSize < 1 || leafCount / teamSize < 1)
        {
            throw new IllegalArgumentException("fcells and fleaves leave no cell or leaf per processor: maxcell=" +
                cellCount + ", maxleaf=" + leafCount + ", processors=" + teamSize);
        }
    }

    private static int checked(final String name, final long value)
    {
        if (value > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException(name + " too large for Java arrays: " + value);
        }
        return (int)value;
    }

    private static int size(final long records, final int stride)
    {
        final long length = records * stride;
        if (length > Integer.MAX_VALUE - 8)
        {
            throw new IllegalArgumentException("BARNES tables too large for Java arrays: " + records + " records of " +
                stride + " elements");
        }
        return (int)length;
    }
}
