package org.viadsm.examples.ocean;

import static org.viadsm.examples.ocean.OceanGeometry.DOWN;
import static org.viadsm.examples.ocean.OceanGeometry.LEFT;
import static org.viadsm.examples.ocean.OceanGeometry.NONE;
import static org.viadsm.examples.ocean.OceanGeometry.RIGHT;
import static org.viadsm.examples.ocean.OceanGeometry.UP;
import static org.viadsm.examples.ocean.OceanGeometry.UPLEFT;

import java.io.PrintStream;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.Team;
import org.viadsm.examples.runtime.VerificationException;

/**
 * The C {@code multi.c}: a W-cycle multigrid solver for the elliptic equation of each time step, with red-black
 * Gauss-Seidel relaxation and half-injection restriction, run by every member on its own block of each level of
 * {@code q_multi} (the solution) and {@code rhs_multi} (the right-hand side). The members agree on the global
 * residual through a shared maximum under {@link Ocean#ERROR_LOCK} and take the same path through the levels.
 * <p>
 * Each kernel works on views made when it starts (after the member's last synchronization): read views of the
 * blocks it reads, an update view of the points it writes; relaxation reads its level through a read view and
 * writes through an update view of the interior.
 * <p>
 * <b>Note:</b> one instance per member, used by the thread that runs it.
 */
final class Multigrid
{
    private static final int RED_ITER = 0;
    private static final int BLACK_ITER = 1;
    private static final double MAX_WORK = 10000.0;

    private final Team team;
    private final OceanGeometry g;
    private final int procid;
    private final int[] nb;
    /** {@code q[k][p]}: processor p's block of level k of the solution. */
    private final DoubleArray[][] q;
    /** {@code rhs[k][p]}: processor p's block of level k of the right-hand side. */
    private final DoubleArray[][] rhs;
    private final DoubleArray errMulti;
    /**
     * The C {@code lev_tol}. The C program keeps it shared, but every processor writes the same value (0.3 times
     * the shared residual) before reading it, so a private copy behaves the same.
     */
    private final double[] levTol;
    private final double eig2;
    private final boolean doOutput;
    private final PrintStream out;
    private final double[] scratch;
    private final ViewPool views;
    private final GridTransfer transfer;
    private double lastResidual;

    Multigrid(
        final Team team,
        final OceanGeometry g,
        final OceanGrids grids,
        final double tolerance,
        final double eig2,
        final boolean doOutput,
        final ViewPool views)
    {
        this.team = team;
        this.g = g;
        this.procid = team.id();
        this.nb = g.neighbors[procid];
        this.q = byLevel(grids.q, g);
        this.rhs = byLevel(grids.rhs, g);
        this.errMulti = grids.errMulti;
        this.levTol = new double[g.numlev];
        this.levTol[g.numlev - 1] = tolerance;
        this.eig2 = eig2;
        this.doOutput = doOutput;
        this.out = team.out();
        final int maxCols = g.blockCols(g.numlev - 1);
        this.scratch = new double[maxCols];
        this.views = views;
        this.transfer = new GridTransfer(g, procid, q, rhs, eig2, views);
    }

    /**
     * This member's block of level {@code k} of the solution.
     *
     * @param k the level.
     * @return the block.
     */
    DoubleArray q(final int k)
    {
        return q[k][procid];
    }

    /**
     * This member's block of level {@code k} of the right-hand side.
     *
     * @param k the level.
     * @return the block.
     */
    DoubleArray rhs(final int k)
    {
        return rhs[k][procid];
    }

    /**
     * The residual the last {@link #multig()} converged to.
     *
     * @return the global residual norm.
     */
    double lastResidual()
    {
        return lastResidual;
    }

    /**
     * The C {@code multig}: W cycles until the finest level's residual is below the tolerance. Member 0 prints
     * the iteration count, level, residual and work with {@code -o}.
     *
     * @throws VerificationException if the work limit is exceeded (the C program exits with an error there).
     */
    void multig()
    {
        final int m = g.numlev - 1;
        boolean flag2 = false;
        int iter = 0;
        double wu = 0.0;
        int k = m;
        double gError = 1.0e30;
        while (!flag2)
        {
            final double errp = gError;
            iter++;
            if (0 == procid)
            {
                errMulti.set(0, 0.0);
            }
            team.barrier();
            copyBlack(k);
            final double redLocalErr = relax(k, RED_ITER);
            team.barrier();
            copyRed(k);
            final double blackLocalErr = relax(k, BLACK_ITER);
            final double localErr = redLocalErr > blackLocalErr ? redLocalErr : blackLocalErr;

            team.lock(Ocean.ERROR_LOCK);
            if (localErr > errMulti.get(0))
            {
                errMulti.set(0, localErr);
            }
            team.unlock(Ocean.ERROR_LOCK);

            wu += Math.pow(4.0, (double)k - m);
            team.barrier();
            gError = errMulti.get(0);
            team.barrier();

            if (gError >= levTol[k])
            {
                if (wu > MAX_WORK)
                {
                    throw new VerificationException(
                        CFormat.format("Maximum work limit %0.5f exceeded", MAX_WORK) + " (residual " + gError +
                        " at level " + k + ", tolerance " + levTol[k] + ")");
                }
                if (k != 0 && gError / errp >= 0.6 && k > g.minlevel)
                {
                    copyBorders(k);
                    copyRhsBorders(k);
                    team.barrier();
                    transfer.rescal(k);
                    levTol[k - 1] = 0.3 * gError;
                    k = k - 1;
                    putz(k);
                    gError = 1.0e30;
                }
            }
            else if (k == m)
            {
                flag2 = true;
            }
            else
            {
                copyBorders(k);
                transfer.intadd(k);
                k++;
                gError = 1.0e30;
            }
        }
        lastResidual = gError;
        if (doOutput && 0 == procid)
        {
            out.println(CFormat.format(
                "iter %ld, level %ld, residual norm %12.8e, work = %7.3f", iter, k, errMulti.get(0), wu));
        }
    }

    private double relax(final int k, final int color)
    {
        final double h = g.levRes[k];
        final int cols = g.blockCols(k);
        final int iend = 1 + g.yptsPerProc[k];
        final int jend = 1 + g.xptsPerProc[k];
        final DoubleReadView t2a = views.read(0, q[k][procid]);
        final DoubleView t2w = views.update(0, q[k][procid], cols + 1, (iend - 1) * cols + jend);
        final DoubleReadView t2b = views.read(1, rhs[k][procid]);
        final double factor = 4.0 - eig2 * h * h;
        double maxerr = 0.0;
        // Even rows start at 2 and odd rows at 1 (the C eist/oist); red points have an even index sum.
        final int evenRowStartCol = RED_ITER == color ? 2 : 1;
        final int oddRowStartCol = RED_ITER == color ? 1 : 2;
        for (int i = 2; i < iend; i += 2)
        {
            maxerr = relaxRow(t2a, t2w, t2b, i, cols, evenRowStartCol, jend, factor, maxerr);
        }
        for (int i = 1; i < iend; i += 2)
        {
            maxerr = relaxRow(t2a, t2w, t2b, i, cols, oddRowStartCol, jend, factor, maxerr);
        }
        return maxerr;
    }

    private static double relaxRow(
        final DoubleReadView t2a,
        final DoubleView t2w,
        final DoubleReadView t2b,
        final int i,
        final int cols,
        final int jstart,
        final int jend,
        final double factor,
        final double maxerrIn)
    {
        double maxerr = maxerrIn;
        final int row = i * cols;
        final int up = row - cols;
        final int down = row + cols;
        for (int j = jstart; j < jend; j += 2)
        {
            final double a = t2a.get(row + j + 1) + t2a.get(row + j - 1) +
                t2a.get(up + j) + t2a.get(down + j) -
                t2b.get(row + j);
            final double oldval = t2a.get(row + j);
            final double newval = a / factor;
            final double newerr = oldval - newval;
            t2w.set(row + j, newval);
            if (Math.abs(newerr) > maxerr)
            {
                maxerr = Math.abs(newerr);
            }
        }
        return maxerr;
    }

    private void putz(final int k)
    {
        // The C loops run to rlien and rljen inclusive: the bottom and right border rows are zeroed too.
        final DoubleArray t2a = q[k][procid];
        final int cols = g.blockCols(k);
        final int iend = 1 + g.yptsPerProc[k];
        final int jend = 1 + g.xptsPerProc[k];
        for (int i = 1; i <= iend; i++)
        {
            t2a.fill(i * cols + 1, i * cols + jend + 1, 0.0);
        }
    }

    private void copyBorders(final int k)
    {
        final int im = g.blockRows(k);
        final int jm = g.blockCols(k);
        Stencils.copyCorners(q[k], procid, nb, im, jm);
        Stencils.copyEdges(q[k], procid, nb, im, jm, scratch, views);
    }

    private void copyRhsBorders(final int k)
    {
        final int im = g.blockRows(k);
        final int jm = g.blockCols(k);
        final int lastrow = im - 2;
        final int lastcol = jm - 2;
        final int upLeft = nb[UPLEFT];
        final int up = nb[UP];
        final int left = nb[LEFT];
        if (NONE == upLeft && NONE == up && NONE == left)
        {
            return;
        }
        // The top border row and the left border column, through row lastrow.
        final DoubleView t2a = views.update(0, rhs[k][procid], 0, lastrow * jm + 1);
        if (NONE != upLeft)
        {
            t2a.set(0, rhs[k][upLeft].get((im - 2) * jm + jm - 2));
        }
        if (NONE != up)
        {
            rhs[k][up].get((im - 2) * jm + 1, scratch, 0, lastcol);
            for (int i = 2; i <= lastcol; i += 2)
            {
                t2a.set(i, scratch[i - 1]);
            }
        }
        if (NONE != left)
        {
            final DoubleReadView t2b = views.read(0, rhs[k][left], jm, (im - 1) * jm);
            for (int i = 2; i <= lastrow; i += 2)
            {
                t2a.set(i * jm, t2b.get(i * jm + jm - 2));
            }
        }
    }

    /** The C {@code copy_red} ({@code red} true) and {@code copy_black}: border points of one colour. */
    private void copyColour(final int k, final boolean red)
    {
        final int im = g.blockRows(k);
        final int jm = g.blockCols(k);
        final int lastrow = im - 2;
        final int lastcol = jm - 2;
        final int even = red ? 2 : 1;
        final int odd = red ? 1 : 2;
        final int up = nb[UP];
        final int down = nb[DOWN];
        final int left = nb[LEFT];
        final int right = nb[RIGHT];
        if (NONE == up && NONE == down && NONE == left && NONE == right)
        {
            return;
        }
        // The border rows and columns, without the corners.
        final DoubleView t2a = views.update(0, q[k][procid], 1, (im - 1) * jm + lastcol + 1);
        if (NONE != up)
        {
            q[k][up].get((im - 2) * jm + 1, scratch, 0, lastcol);
            for (int i = even; i <= lastcol; i += 2)
            {
                t2a.set(i, scratch[i - 1]);
            }
        }
        if (NONE != down)
        {
            q[k][down].get(jm + 1, scratch, 0, lastcol);
            for (int i = odd; i <= lastcol; i += 2)
            {
                t2a.set((im - 1) * jm + i, scratch[i - 1]);
            }
        }
        if (NONE != left)
        {
            final DoubleReadView t2b = views.read(0, q[k][left], jm, (im - 1) * jm);
            for (int i = even; i <= lastrow; i += 2)
            {
                t2a.set(i * jm, t2b.get(i * jm + jm - 2));
            }
        }
        if (NONE != right)
        {
            final DoubleReadView t2b = views.read(0, q[k][right], jm, (im - 1) * jm);
            for (int i = odd; i <= lastrow; i += 2)
            {
                t2a.set(i * jm + jm - 1, t2b.get(i * jm + 1));
            }
        }
    }

    private void copyRed(final int k)
    {
        copyColour(k, true);
    }

    private void copyBlack(final int k)
    {
        copyColour(k, false);
    }

    private static DoubleArray[][] byLevel(final DoubleArray[][] byProc, final OceanGeometry g)
    {
        final DoubleArray[][] levels = new DoubleArray[g.numlev][g.nprocs];
        for (int k = 0; k < g.numlev; k++)
        {
            for (int p = 0; p < g.nprocs; p++)
            {
                levels[k][p] = byProc[p][k];
            }
        }
        return levels;
    }
}
