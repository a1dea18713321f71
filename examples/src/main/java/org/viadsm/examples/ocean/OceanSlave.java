package org.viadsm.examples.ocean;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.Team;
import org.viadsm.examples.runtime.VerificationException;

/**
 * The C {@code slave}: what every member runs. It initialises its blocks, computes the one-time psib field (a
 * multigrid solve) and its integral, the wind-stress curl, then runs time steps until the simulated day passes
 * {@link OceanConstants#OUTDAY3}, accumulating the stream functions once per simulated day.
 * <p>
 * Self-check: every multigrid solve must end below the tolerance (a NaN residual passes the C program's loop test
 * and is caught here), and at the end every point of this member's stream functions must be finite.
 * <p>
 * <b>Note:</b> one instance per member, used by the thread that runs it.
 */
final class OceanSlave
{
    private final Team team;
    private final OceanGeometry geometry;
    private final OceanGrids grids;
    private final OceanConstants c;
    private final double tolerance;
    private final Block b;
    private final Multigrid multigrid;
    private final TimeStep timeStep;
    private final int procid;
    private long trackstartUs;
    private double totalTimeUs;

    OceanSlave(
        final Team team,
        final OceanGeometry geometry,
        final OceanGrids grids,
        final OceanConstants c,
        final double tolerance,
        final boolean doOutput)
    {
        this.team = team;
        this.geometry = geometry;
        this.grids = grids;
        this.c = c;
        this.tolerance = tolerance;
        this.procid = team.id();
        this.b = new Block(geometry, procid);
        this.multigrid = new Multigrid(team, geometry, grids, tolerance, c.eig2, doOutput, b.views);
        this.timeStep = new TimeStep(team, b, geometry, grids, multigrid, c);
    }

    /**
     * When member 0 finished the first time step (the C {@code global->trackstart}).
     *
     * @return microseconds since the epoch; 0 on other members.
     */
    long trackstartUs()
    {
        return trackstartUs;
    }

    /**
     * Runs the member to the end of the simulation and stores its times in the shared statistics.
     *
     * @throws VerificationException if a solve did not converge or a value is not finite.
     */
    void run()
    {
        // The C workers draw their ids from a shared counter under idlock; members have ids, but take the lock
        // and bump the counter the same way.
        team.lock(Ocean.ID_LOCK);
        grids.idCounter.set(0, grids.idCounter.get(0) + 1);
        team.unlock(Ocean.ID_LOCK);
        team.barrier();

        initialise();
        team.barrier();
        computePsib();
        team.barrier();
        final double psibipriv = b.boundaryWeightedSum(grids.psib[procid]);
        team.lock(Ocean.PSIBI_LOCK);
        grids.psiSums.set(1, grids.psiSums.get(1) + psibipriv);
        team.unlock(Ocean.PSIBI_LOCK);
        for (int psiindex = 0; psiindex <= 1; psiindex++)
        {
            b.fill(grids.psim[psiindex][procid], 0.0);
        }
        for (int psiindex = 0; psiindex <= 1; psiindex++)
        {
            b.fill(grids.psi[psiindex][procid], 0.0);
        }
        windStressCurl();
        team.barrier();
        timeLoop();
        if (0 == procid || c.doStats)
        {
            grids.times.set(2 * procid, totalTimeUs);
            grids.times.set(2 * procid + 1, timeStep.multiTimeUs());
        }
    }

    /**
     * Checks that every point this member owns of the stream functions and their daily sums is finite.
     *
     * @throws VerificationException naming the grid and point otherwise.
     */
    void checkFinite()
    {
        checkFinite("psi1", grids.psi[0][procid]);
        checkFinite("psi3", grids.psi[1][procid]);
        checkFinite("psium", grids.psium[procid]);
        checkFinite("psilm", grids.psilm[procid]);
    }

    private void initialise()
    {
        grids.oldga[procid].fill(0.0);
        grids.oldgb[procid].fill(0.0);
        if (0 == procid)
        {
            final double ysca1 = 0.5 * c.ysca;
            final int length = grids.f.length();
            final DoubleView f = grids.f.write(0, length);
            for (int iindex = 0; iindex <= length - 1; iindex++)
            {
                final double y = ((double)iindex) * c.res;
                f.set(iindex, OceanConstants.F0 + OceanConstants.BETA * (y - ysca1));
            }
        }
        b.fill(grids.psium[procid], 0.0);
        b.fill(grids.psilm[procid], 0.0);
        // psib is 1 on the global boundary and 0 inside.
        final DoubleView psib = b.updateOwned(0, grids.psib[procid]);
        final int jm = b.jm;
        for (int i = b.rowLo; i <= b.rowHi; i++)
        {
            for (int j = b.colLo; j <= b.colHi; j++)
            {
                final boolean edge = 0 == i || b.im - 1 == i || 0 == j || jm - 1 == j;
                psib.set(i * jm + j, edge ? 1.0 : 0.0);
            }
        }
    }

    private void computePsib()
    {
        final int finest = geometry.numlev - 1;
        final DoubleArray rhs = multigrid.rhs(finest);
        final DoubleArray q = multigrid.q(finest);
        b.prepareSolve(rhs, q, grids.psib[procid], c.ressqr);
        team.barrier();
        Stencils.copyEdges(grids.psib, procid, b.nb, b.im, b.jm, b.scratch, b.views);
        final DoubleReadView psib = b.views.read(0, grids.psib[procid]);
        final DoubleView qv = b.updateInterior(0, q);

        final double ressqr = c.ressqr;
        final double fac = 1.0 / (4.0 - ressqr * c.eig2);
        final int jm = b.jm;
        final int colEnd = b.lastcol + 1;
        for (int i = b.firstrow; i <= b.lastrow; i++)
        {
            psibRow(qv, psib, i * jm, jm, b.firstcol, colEnd, fac, ressqr);
        }
        multigrid.multig();
        checkConverged(multigrid.lastResidual(), 0);
        b.copy(grids.psib[procid], q);
    }

    /**
     * One row of the right-hand side of {@link #computePsib()}'s solve, points {@code [from, to)}. A method of its
     * own, called once per row, which C2 compiles early and whole with the view accessors inlined: run once per run,
     * {@code computePsib} is compiled whole after about 10 runs on 2 nodes, inlining the barrier and the solve's
     * set-up, and with the loop in it that compilation reached C2's limit on inlined bytecode
     * ({@code DesiredMethodLimit}) before the loop's accessors, which stayed calls, one per point.
     *
     * @param q      update view of the right-hand side's block.
     * @param psib   read view of psib's block.
     * @param r      index of the row's first point.
     * @param jm     the stride between rows.
     * @param from   first column.
     * @param to     end column, exclusive.
     * @param fac    1 / (4 - res^2 eig2).
     * @param ressqr res^2.
     */
    private static void psibRow(
        final DoubleView q,
        final DoubleReadView psib,
        final int r,
        final int jm,
        final int from,
        final int to,
        final double fac,
        final double ressqr)
    {
        for (int j = from; j < to; j++)
        {
            q.set(r + j, fac * (psib.get(r + jm + j) + psib.get(r - jm + j) + psib.get(r + j + 1) +
                psib.get(r + j - 1) - ressqr * psib.get(r + j)));
        }
    }

    private void windStressCurl()
    {
        final DoubleArray t2a = grids.tauz[procid];
        final double ysca1 = .5 * c.ysca;
        final double factor = -OceanConstants.T0 * c.pi / ysca1;
        final int jOff = geometry.colnum[procid] * (b.lastcol - b.firstcol + 1);
        // The curl only varies along a row: one sine per column.
        final double[] curlt = new double[b.jm];
        for (int j = b.colLo; j <= b.colHi; j++)
        {
            // Column 0 is written only on the global left edge, where the C code stores 0.0, not factor * sin(0).
            curlt[j] = 0 == j ? 0.0 : factor * RoundedSine.sin(c.pi * ((double)j + jOff) * c.res / ysca1);
        }
        final int n = b.colHi - b.colLo + 1;
        for (int i = b.rowLo; i <= b.rowHi; i++)
        {
            t2a.set(i * b.jm + b.colLo, curlt, b.colLo, n);
        }
    }

    private void timeLoop()
    {
        final double dtau = c.dtau;
        double ttime = 0.0;
        double dhour = 0.0;
        int nstep = 0;
        long iday = 0;
        boolean endflag = false;
        while (!endflag)
        {
            boolean dayflag = false;
            boolean dhourflag = false;
            while (!dayflag || !dhourflag)
            {
                dayflag = false;
                dhourflag = false;
                if (1 == nstep)
                {
                    team.beginTimedPhase();
                    if (0 == procid)
                    {
                        trackstartUs = Ocean.clockUs();
                    }
                    if (0 == procid || c.doStats)
                    {
                        totalTimeUs = Ocean.clockUs();
                        timeStep.resetMultiTime();
                    }
                }
                timeStep.run();
                checkConverged(timeStep.lastResidual(), nstep + 1);
                ttime = ttime + dtau;
                nstep = nstep + 1;
                final double day = ttime / 86400.0;
                if (day > OceanConstants.OUTDAY0)
                {
                    dayflag = true;
                    iday = (long)day;
                    dhour = dhour + dtau;
                    if (dhour >= 86400.0)
                    {
                        dhourflag = true;
                    }
                }
            }
            dhour = 0.0;
            b.addScaled(grids.psium[procid], 1.0, grids.psim[0][procid]);
            b.addScaled(grids.psilm[procid], 1.0, grids.psim[1][procid]);
            if (iday >= (long)OceanConstants.OUTDAY3)
            {
                endflag = true;
            }
        }
        if (0 == procid || c.doStats)
        {
            totalTimeUs = Ocean.clockUs() - totalTimeUs;
        }
    }

    private void checkConverged(final double residual, final int step)
    {
        if (!(residual < tolerance))
        {
            throw new VerificationException("OCEAN: multigrid solve " + (0 == step ? "for psib" : "of time step " +
                step) + " ended with residual " + CFormat.format("%12.8e", residual) + ", tolerance " +
                CFormat.format("%g", tolerance));
        }
    }

    private void checkFinite(final String name, final DoubleArray a)
    {
        final double[] row = b.scratch;
        final int jm = b.jm;
        final int n = b.colHi - b.colLo + 1;
        for (int i = b.rowLo; i <= b.rowHi; i++)
        {
            a.get(i * jm + b.colLo, row, 0, n);
            for (int j = 0; j < n; j++)
            {
                if (!Double.isFinite(row[j]))
                {
                    throw new VerificationException("OCEAN: " + name + " of member " + procid + " is " + row[j] +
                        " at block point (" + i + ", " + (b.colLo + j) + ")");
                }
            }
        }
    }
}
