package org.viadsm.examples.ocean;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;
import org.viadsm.examples.runtime.Team;

/**
 * The C {@code slave2}: one time step of the two-layer ocean model, in ten phases separated by barriers. Phase by
 * phase it forms the Laplacians and Arakawa Jacobians of the stream functions, the friction terms, solves two
 * elliptic equations with the multigrid solver, corrects the first solution so its integral vanishes, and steps
 * the stream functions forward. Point-wise loops read and write the member's blocks through views made at the start
 * of each phase (see {@link Block}).
 * <p>
 * <b>Note:</b> one instance per member, used by the thread that runs it.
 */
final class TimeStep
{
    private final Team team;
    private final Block b;
    private final OceanGrids grids;
    private final Multigrid multigrid;
    private final OceanConstants c;
    private final int procid;
    private final int finest;
    private final int iOff;
    private final int jOff;
    private final double[] fRow;
    private double multiTimeUs;
    private double lastResidual;

    TimeStep(
        final Team team,
        final Block b,
        final OceanGeometry geometry,
        final OceanGrids grids,
        final Multigrid multigrid,
        final OceanConstants c)
    {
        this.team = team;
        this.b = b;
        this.grids = grids;
        this.multigrid = multigrid;
        this.c = c;
        this.procid = b.procid;
        this.finest = geometry.numlev - 1;
        this.iOff = geometry.rownum[procid] * (b.lastrow - b.firstrow + 1);
        this.jOff = geometry.colnum[procid] * (b.lastcol - b.firstcol + 1);
        this.fRow = new double[grids.f.length()];
    }

    /**
     * Microseconds spent in the multigrid solver so far (the C {@code multi_time}).
     *
     * @return the time.
     */
    double multiTimeUs()
    {
        return multiTimeUs;
    }

    /**
     * Resets the multigrid time, as the C program does after the first time step.
     */
    void resetMultiTime()
    {
        multiTimeUs = 0;
    }

    /**
     * The larger of the two residuals the multigrid solver converged to in the last step.
     *
     * @return the residual norm.
     */
    double lastResidual()
    {
        return lastResidual;
    }

    /**
     * Runs one time step.
     */
    void run()
    {
        phase1();
        team.barrier();
        phase2();
        team.barrier();
        phase3();
        team.barrier();
        phase4();
        team.barrier();
        phase5();
        team.barrier();
        // Sixth phase: solve for ga; member 0 resets the shared sum psiai meanwhile.
        solve(grids.ga[procid], grids.oldga[procid], true);
        team.barrier();
        // Seventh phase: integrate ga.
        final double psiaipriv = b.boundaryWeightedSum(grids.ga[procid]);
        team.lock(Ocean.PSIAI_LOCK);
        grids.psiSums.set(0, grids.psiSums.get(0) + psiaipriv);
        team.unlock(Ocean.PSIAI_LOCK);
        team.barrier();
        // Eighth phase: make the integral of ga vanish, then solve for gb.
        final double f4 = (-grids.psiSums.get(0)) / grids.psiSums.get(1);
        b.addScaled(grids.ga[procid], f4, grids.psib[procid]);
        final double gaResidual = multigrid.lastResidual();
        solve(grids.gb[procid], grids.oldgb[procid], false);
        lastResidual = Math.max(gaResidual, multigrid.lastResidual());
        team.barrier();
        phase9();
        team.barrier();
        phase10();
        team.barrier();
    }

    private void phase1()
    {
        b.fill(grids.ga[procid], 0.0);
        b.fill(grids.gb[procid], 0.0);
        // The Laplacians of psi1 and psi3 into work1.
        for (int psiindex = 0; psiindex <= 1; psiindex++)
        {
            b.zeroCorners(grids.work1[psiindex][procid]);
            Stencils.laplacalc(b, grids.psi[psiindex], grids.work1[psiindex], c.factlap);
        }
        final DoubleView work2 = b.updateOwned(0, grids.work2[procid]);
        final DoubleView work3 = b.updateOwned(1, grids.work3[procid]);
        final DoubleReadView psi1 = b.readOwned(0, grids.psi[0][procid]);
        final DoubleReadView psi3 = b.readOwned(1, grids.psi[1][procid]);
        final int jm = b.jm;
        final int rowEnd = b.rowHi + 1;
        final int width = b.colHi + 1 - b.colLo;
        for (int i = b.rowLo; i < rowEnd; i++)
        {
            final int from = i * jm + b.colLo;
            RowKernels.difference(work2, psi1, psi3, from, from + width);
        }
        // The C comment says "h3/h * psi1 + h1/h * psi3" but the code scales work3 itself; kept as written.
        for (int i = b.rowLo; i < rowEnd; i++)
        {
            final int from = i * jm + b.colLo;
            RowKernels.weightedSum(work3, c.hh3, psi3, c.hh1, from, from + width);
        }
        for (int psiindex = 0; psiindex <= 1; psiindex++)
        {
            b.copy(grids.temparray[psiindex][procid], grids.psi[psiindex][procid]);
        }
    }

    private void phase2()
    {
        for (int psiindex = 0; psiindex <= 1; psiindex++)
        {
            b.copy(grids.psi[psiindex][procid], grids.psim[psiindex][procid]);
        }
        // First of the three Laplacians of the friction term.
        for (int psiindex = 0; psiindex <= 1; psiindex++)
        {
            b.zeroCorners(grids.work7[psiindex][procid]);
            Stencils.laplacalc(b, grids.psim[psiindex], grids.work7[psiindex], c.factlap);
        }
        grids.f.get(0, fRow, 0, fRow.length);
        for (int psiindex = 0; psiindex <= 1; psiindex++)
        {
            addCoriolis(grids.work1[psiindex][procid]);
        }
    }

    /** Adds f to work1: along the columns, except that the left and right edges take f by row as the C does. */
    private void addCoriolis(final DoubleArray array)
    {
        final DoubleView t2a = b.updateOwned(0, array);
        final double[] f = fRow;
        final int im = b.im;
        final int jm = b.jm;
        final int fLast = f.length - 1;
        final int bottomRow = (im - 1) * jm;
        if (b.top && b.left)
        {
            t2a.set(0, t2a.get(0) + f[0]);
        }
        if (b.bottom && b.left)
        {
            t2a.set(bottomRow, t2a.get(bottomRow) + f[0]);
        }
        if (b.top && b.right)
        {
            t2a.set(jm - 1, t2a.get(jm - 1) + f[fLast]);
        }
        if (b.bottom && b.right)
        {
            t2a.set(bottomRow + jm - 1, t2a.get(bottomRow + jm - 1) + f[fLast]);
        }
        if (b.top)
        {
            for (int j = b.firstcol; j <= b.lastcol; j++)
            {
                t2a.set(j, t2a.get(j) + f[j + jOff]);
            }
        }
        if (b.bottom)
        {
            for (int j = b.firstcol; j <= b.lastcol; j++)
            {
                t2a.set(bottomRow + j, t2a.get(bottomRow + j) + f[j + jOff]);
            }
        }
        if (b.left)
        {
            for (int j = b.firstrow; j <= b.lastrow; j++)
            {
                t2a.set(j * jm, t2a.get(j * jm) + f[j + iOff]);
            }
        }
        if (b.right)
        {
            for (int j = b.firstrow; j <= b.lastrow; j++)
            {
                t2a.set(j * jm + jm - 1, t2a.get(j * jm + jm - 1) + f[j + iOff]);
            }
        }
        final int rowEnd = b.lastrow + 1;
        for (int i = b.firstrow; i < rowEnd; i++)
        {
            final int row = i * jm;
            RowKernels.add(t2a, f, jOff - row, row + b.firstcol, row + b.lastcol + 1);
        }
    }

    private void phase3()
    {
        // The Jacobians of work1 and psi (kept in temparray) into work5.
        for (int psiindex = 0; psiindex <= 1; psiindex++)
        {
            Stencils.jacobcalc(b, grids.work1[psiindex], grids.temparray[psiindex], grids.work5[psiindex],
                c.factjacob);
        }
        for (int psiindex = 0; psiindex <= 1; psiindex++)
        {
            b.copy(grids.psim[psiindex][procid], grids.temparray[psiindex][procid]);
        }
        // Second of the three friction Laplacians.
        for (int psiindex = 0; psiindex <= 1; psiindex++)
        {
            Stencils.laplacalc(b, grids.work7[psiindex], grids.work4[psiindex], c.factlap);
        }
    }

    private void phase4()
    {
        Stencils.jacobcalc(b, grids.work2, grids.work3, grids.work6, c.factjacob);
        // Third of the three friction Laplacians.
        for (int psiindex = 0; psiindex <= 1; psiindex++)
        {
            Stencils.laplacalc(b, grids.work4[psiindex], grids.work7[psiindex], c.factlap);
        }
    }

    private void phase5()
    {
        final DoubleView t2a = b.updateOwned(0, grids.ga[procid]);
        final DoubleView t2b = b.updateOwned(1, grids.gb[procid]);
        final DoubleReadView t2c = b.readOwned(0, grids.work5[0][procid]);
        final DoubleReadView t2d = b.readOwned(1, grids.work5[1][procid]);
        final DoubleReadView t2e = b.readOwned(2, grids.work7[0][procid]);
        final DoubleReadView t2f = b.readOwned(3, grids.work7[1][procid]);
        final DoubleReadView t2g = b.readOwned(4, grids.work6[procid]);
        final DoubleReadView t2h = b.readOwned(5, grids.tauz[procid]);
        final int jm = b.jm;
        final int rowEnd = b.rowHi + 1;
        final int width = b.colHi + 1 - b.colLo;
        for (int i = b.rowLo; i < rowEnd; i++)
        {
            final int from = i * jm + b.colLo;
            RowKernels.rightHandSides(t2a, t2b, t2c, t2d, t2e, t2f, t2g, t2h, c, from, from + width);
        }
    }

    /**
     * Sixth and eighth phases: solve the elliptic equation whose right-hand side is {@code g}, starting from the
     * previous step's solution {@code old}, and keep the solution in both.
     */
    private void solve(final DoubleArray g, final DoubleArray old, final boolean resetPsiai)
    {
        final DoubleArray rhs = multigrid.rhs(finest);
        final DoubleArray q = multigrid.q(finest);
        b.prepareSolve(rhs, q, g, c.ressqr);
        b.copyInterior(q, old);

        final boolean timed = 0 == procid || c.doStats;
        final long startUs = timed ? Ocean.clockUs() : 0;
        multigrid.multig();
        if (timed)
        {
            multiTimeUs += Ocean.clockUs() - startUs;
        }
        if (resetPsiai && 0 == procid)
        {
            grids.psiSums.set(0, 0.0);
        }
        // The solution is the next step's initial guess.
        b.copy(g, q);
        b.copy(old, q);
    }

    private void phase9()
    {
        final DoubleReadView t2a = b.readOwned(0, grids.ga[procid]);
        final DoubleReadView t2b = b.readOwned(1, grids.gb[procid]);
        final DoubleView t2c = b.updateOwned(0, grids.work2[procid]);
        final DoubleView t2d = b.updateOwned(1, grids.work3[procid]);
        final int jm = b.jm;
        final int rowEnd = b.rowHi + 1;
        final int width = b.colHi + 1 - b.colLo;
        for (int i = b.rowLo; i < rowEnd; i++)
        {
            final int from = i * jm + b.colLo;
            RowKernels.layers(t2a, t2b, t2c, t2d, c.hh1, c.hh3, from, from + width);
        }
    }

    private void phase10()
    {
        final double timst = 2 * c.dtau;
        b.addScaled(grids.psi[0][procid], timst, grids.work3[procid]);
        b.addScaled(grids.psi[1][procid], timst, grids.work2[procid]);
    }
}
