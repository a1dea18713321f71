package org.viadsm.examples.ocean;

import org.viadsm.dsm.Placement;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.LongArray;
import org.viadsm.examples.runtime.Team;

/**
 * The shared data of OCEAN, laid out as the C program's "contiguous partitions": every grid is split into one
 * block per processor (its interior points plus a border of one point all around), and each block is contiguous,
 * row after row. Each grid is one shared array holding the blocks of processors 0, 1, ... in turn; the multigrid
 * grids {@code q_multi} and {@code rhs_multi} are one shared array each whose per-processor part holds that
 * processor's block of every level, coarsest first, as the C {@code link_multi} lays them out.
 * <p>
 * The fields hold per-processor views: {@code psi[0][p]} is processor {@code p}'s block of the upper-layer stream
 * function (C {@code psi[p][0]}), {@code q[p][k]} its block of level {@code k} (C {@code q_multi[p][k]}). Element
 * (i, j) of a block is at index {@code i * cols + j}.
 * <p>
 * Each processor's blocks live at that processor, each processor's part starting on a page of its own (padded to
 * whole 4 KiB pages), and the small shared scalars at the master.
 * <p>
 * <b>Note:</b> allocation is collective; every member builds its own views of the same arrays.
 */
final class OceanGrids
{
    /** Doubles per 4 KiB page, the default coherence unit. */
    static final int PAGE_DOUBLES = 4096 / Double.BYTES;

    final DoubleArray[][] psi;
    final DoubleArray[][] psim;
    final DoubleArray[] psium;
    final DoubleArray[] psilm;
    final DoubleArray[] psib;
    final DoubleArray[] ga;
    final DoubleArray[] gb;
    final DoubleArray[][] work1;
    final DoubleArray[] work2;
    final DoubleArray[] work3;
    final DoubleArray[][] work4;
    final DoubleArray[][] work5;
    final DoubleArray[] work6;
    final DoubleArray[][] work7;
    final DoubleArray[][] temparray;
    final DoubleArray[] tauz;
    final DoubleArray[] oldga;
    final DoubleArray[] oldgb;
    /** Coriolis parameter per row of the full grid. */
    final DoubleArray f;
    /** The C {@code multi->err_multi}: the largest residual of the current relaxation sweep. */
    final DoubleArray errMulti;
    /** The C {@code global->psiai} (index 0) and {@code global->psibi} (index 1). */
    final DoubleArray psiSums;
    /** The C {@code global->id}: the counter the C workers take their ids from. */
    final LongArray idCounter;
    /** Per processor: total time (index 2p) and multigrid time (index 2p + 1), microseconds. */
    final DoubleArray times;
    final DoubleArray[][] q;
    final DoubleArray[][] rhs;

    OceanGrids(final Team team, final OceanGeometry geometry)
    {
        final int nprocs = geometry.nprocs;
        final int blockLength = geometry.blockRows(geometry.numlev - 1) * geometry.blockCols(geometry.numlev - 1);
        psi = new DoubleArray[][] {grid(team, "psi0", nprocs, blockLength), grid(team, "psi1", nprocs, blockLength)};
        psim = new DoubleArray[][] {
            grid(team, "psim0", nprocs, blockLength), grid(team, "psim1", nprocs, blockLength)};
        psium = grid(team, "psium", nprocs, blockLength);
        psilm = grid(team, "psilm", nprocs, blockLength);
        psib = grid(team, "psib", nprocs, blockLength);
        ga = grid(team, "ga", nprocs, blockLength);
        gb = grid(team, "gb", nprocs, blockLength);
        work1 = new DoubleArray[][] {
            grid(team, "work1_0", nprocs, blockLength), grid(team, "work1_1", nprocs, blockLength)};
        work2 = grid(team, "work2", nprocs, blockLength);
        work3 = grid(team, "work3", nprocs, blockLength);
        work4 = new DoubleArray[][] {
            grid(team, "work4_0", nprocs, blockLength), grid(team, "work4_1", nprocs, blockLength)};
        work5 = new DoubleArray[][] {
            grid(team, "work5_0", nprocs, blockLength), grid(team, "work5_1", nprocs, blockLength)};
        work6 = grid(team, "work6", nprocs, blockLength);
        work7 = new DoubleArray[][] {
            grid(team, "work7_0", nprocs, blockLength), grid(team, "work7_1", nprocs, blockLength)};
        temparray = new DoubleArray[][] {
            grid(team, "temparray0", nprocs, blockLength), grid(team, "temparray1", nprocs, blockLength)};
        tauz = grid(team, "tauz", nprocs, blockLength);
        oldga = grid(team, "oldga", nprocs, blockLength);
        oldgb = grid(team, "oldgb", nprocs, blockLength);
        final Placement master = Placement.onNode(0);
        f = team.doubles("ocean.f", geometry.imx[geometry.numlev - 1], master);
        errMulti = team.doubles("ocean.multi", 1, master);
        psiSums = team.doubles("ocean.global", 2, master);
        idCounter = team.longs("ocean.id", 1, master);
        times = team.doubles("ocean.times", 2 * nprocs, master);
        q = multigrid(team, "ocean.q_multi", geometry);
        rhs = multigrid(team, "ocean.rhs_multi", geometry);
    }

    private static DoubleArray[] grid(final Team team, final String name, final int nprocs, final int blockLength)
    {
        final int stride = pageAligned(blockLength);
        final DoubleArray whole = team.doubles("ocean." + name, nprocs * stride,
            Placement.byElement(element -> element / stride));
        final DoubleArray[] blocks = new DoubleArray[nprocs];
        for (int p = 0; p < nprocs; p++)
        {
            blocks[p] = whole.range(p * stride, p * stride + blockLength);
        }
        return blocks;
    }

    private static DoubleArray[][] multigrid(final Team team, final String name, final OceanGeometry geometry)
    {
        final int numlev = geometry.numlev;
        final int nprocs = geometry.nprocs;
        int perProc = 0;
        for (int k = 0; k < numlev; k++)
        {
            perProc += geometry.blockRows(k) * geometry.blockCols(k);
        }
        final int stride = pageAligned(perProc);
        final DoubleArray whole = team.doubles(name, nprocs * stride,
            Placement.byElement(element -> element / stride));
        final DoubleArray[][] blocks = new DoubleArray[nprocs][numlev];
        for (int p = 0; p < nprocs; p++)
        {
            int from = p * stride;
            for (int k = 0; k < numlev; k++)
            {
                final int length = geometry.blockRows(k) * geometry.blockCols(k);
                blocks[p][k] = whole.range(from, from + length);
                from += length;
            }
        }
        return blocks;
    }

    /**
     * Where processor {@code p}'s part starts is {@code p} times this: its length rounded up to whole 4 KiB pages,
     * so that no page holds two processors' points (a page both write would be twinned, diffed point by point
     * at every phase of the red-black sweeps, and invalidated at the other).
     */
    static int pageAligned(final int doubles)
    {
        return (doubles + PAGE_DOUBLES - 1) / PAGE_DOUBLES * PAGE_DOUBLES;
    }
}
