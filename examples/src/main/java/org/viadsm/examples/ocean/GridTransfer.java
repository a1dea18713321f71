package org.viadsm.examples.ocean;

import static org.viadsm.examples.ocean.OceanGeometry.LEFT;
import static org.viadsm.examples.ocean.OceanGeometry.NONE;
import static org.viadsm.examples.ocean.OceanGeometry.UP;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;

/**
 * The multigrid solver's moves between levels, the C {@code rescal} (the residual restricted to the next coarser
 * level's right-hand side) and {@code intadd} (the coarse correction interpolated and added to the finer level),
 * one coarse row at a time. A row is a method of its own, called many times per run, so that the JIT compiles it
 * as a plain method early in a JVM's first run and keeps it compiled: as a loop of a kernel that runs a few dozen
 * times per run, it was compiled first from the loop entered in the interpreter and then once more, as a method, in
 * a later run, a second large compilation that took the CPU from the other node of a 2-core machine. A transfer
 * keeps the level's views and factors in fields between its rows; each row copies them to locals first.
 * <p>
 * <b>Note:</b> one instance per member, used by the thread that runs it.
 */
final class GridTransfer
{
    private final OceanGeometry g;
    private final int procid;
    private final int rownum;
    private final int colnum;
    private final int upProc;
    private final int leftProc;
    private final DoubleArray[][] q;
    private final DoubleArray[][] rhs;
    private final double eig2;
    private final ViewPool views;

    private DoubleReadView fineQ;
    private DoubleReadView fineRhs;
    private DoubleReadView coarseQ;
    private DoubleView out;
    private DoubleArray upQ;
    private DoubleArray leftQ;
    private boolean top;
    private boolean leftEdge;
    private int iOff;
    private int jOff;
    private int im;
    private int jm;
    private int fc;
    private int cc;
    private int jend;
    private double factor;
    private double iCoeff;
    private double jCoeff;
    private int imxc;
    private int jmxc;

    /**
     * A transfer for one member.
     *
     * @param g      the geometry.
     * @param procid the member's processor id.
     * @param q      {@code q[k][p]}: processor p's block of level k of the solution.
     * @param rhs    {@code rhs[k][p]}: processor p's block of level k of the right-hand side.
     * @param eig2   the eigenvalue of the elliptic equation.
     * @param views  the member's views; read slots 0 and 1 and update slot 0 are re-wrapped.
     */
    GridTransfer(
        final OceanGeometry g,
        final int procid,
        final DoubleArray[][] q,
        final DoubleArray[][] rhs,
        final double eig2,
        final ViewPool views)
    {
        this.g = g;
        this.procid = procid;
        this.rownum = g.rownum[procid];
        this.colnum = g.colnum[procid];
        this.upProc = g.neighbors[procid][UP];
        this.leftProc = g.neighbors[procid][LEFT];
        this.q = q;
        this.rhs = rhs;
        this.eig2 = eig2;
        this.views = views;
    }

    /**
     * The C {@code rescal}: the residual of level {@code kf} restricted into the right-hand side of level
     * {@code kf - 1}; the borders of level {@code kf} hold the neighbours' points.
     *
     * @param kf the finer level.
     */
    void rescal(final int kf)
    {
        final int krc = kf - 1;
        final double hf = g.levRes[kf];
        iOff = rownum * g.yptsPerProc[krc];
        jOff = colnum * g.xptsPerProc[krc];
        im = (g.imx[kf] - 2) / g.yprocs;
        jm = (g.jmx[kf] - 2) / g.xprocs;
        final int iend = g.yptsPerProc[krc];
        jend = g.xptsPerProc[krc];
        factor = 4.0 - eig2 * hf * hf;
        fc = g.blockCols(kf);
        cc = g.blockCols(krc);
        fineQ = views.read(0, q[kf][procid]);
        fineRhs = views.read(1, rhs[kf][procid]);
        out = views.update(0, rhs[krc][procid], cc + 1, iend * cc + jend + 1);
        upQ = NONE == upProc ? null : q[kf][upProc];
        leftQ = NONE == leftProc ? null : q[kf][leftProc];
        top = NONE == upProc;
        leftEdge = NONE == leftProc;
        iCoeff = g.iIntCoeff[krc];
        jCoeff = g.jIntCoeff[krc];
        final int icEnd = iend + 1;
        for (int ic = 1; ic < icEnd; ic++)
        {
            restrictRow(ic);
        }
    }

    /**
     * One coarse row of {@link #rescal}. The points of the first coarse row and column read the neighbours' points,
     * or are zero along the global boundary, and go one at a time; the others go through a loop without those
     * branches, whose profile otherwise made C2 speculate on them (profile_predicate) and trap in every run.
     */
    private void restrictRow(final int ic)
    {
        if (1 == ic)
        {
            final int jcEnd = jend + 1;
            for (int jc = 1; jc < jcEnd; jc++)
            {
                restrictEdgePoint(ic, jc);
            }
        }
        else
        {
            restrictEdgePoint(ic, 1);
            restrictInterior(ic);
        }
    }

    private void restrictEdgePoint(final int ic, final int jc)
    {
        final DoubleReadView t2a = fineQ;
        final DoubleReadView t2b = fineRhs;
        final int fc = this.fc;
        final int if17 = 2 * ic;
        final int jf = 2 * jc;
        // Row offsets of the C t1a..t1h; t1g (row if17 - 3) is only read when if17 > 2.
        final int a = if17 * fc;
        final int d = a - fc;
        final int e = a + fc;
        final int f = a - 2 * fc;
        final int gg = a - 3 * fc;
        final double jIntFactor = (jc + jOff) * jCoeff * 0.5;
        double s = t2a.get(a + jf + 1) + t2a.get(a + jf - 1) + t2a.get(d + jf) + t2a.get(e + jf);
        final double s1 = 2.0 * (t2b.get(a + jf) - s + factor * t2a.get(a + jf));
        final double s2;
        final double s3;
        final double s4;
        if ((if17 == 2 && top) || (jf == 2 && leftEdge))
        {
            s2 = 0;
            s3 = 0;
            s4 = 0;
        }
        else
        {
            double temp = jf == 2 ? leftQ.get(if17 * fc + jm - 1) : t2a.get(a + jf - 3);
            s = t2a.get(a + jf - 1) + temp + t2a.get(d + jf - 2) + t2a.get(e + jf - 2);
            s2 = 2.0 * (t2b.get(a + jf - 2) - s + factor * t2a.get(a + jf - 2));
            temp = if17 == 2 ? upQ.get((im - 1) * fc + jf) : t2a.get(gg + jf);
            s = t2a.get(f + jf + 1) + t2a.get(f + jf - 1) + temp + t2a.get(d + jf);
            s3 = 2.0 * (t2b.get(f + jf) - s + factor * t2a.get(f + jf));
            temp = jf == 2 ? leftQ.get((if17 - 2) * fc + jm - 1) : t2a.get(f + jf - 3);
            final double temp2 = if17 == 2 ? upQ.get((im - 1) * fc + jf - 2) : t2a.get(gg + jf - 2);
            s = t2a.get(f + jf - 1) + temp + temp2 + t2a.get(d + jf - 2);
            s4 = 2.0 * (t2b.get(f + jf - 2) - s + factor * t2a.get(f + jf - 2));
        }
        final double iIntFactor = (ic + iOff) * iCoeff * 0.5;
        final double int1 = jIntFactor * s4 + (1.0 - jIntFactor) * s3;
        final double int2 = jIntFactor * s2 + (1.0 - jIntFactor) * s1;
        out.set(ic * cc + jc, iIntFactor * int1 + (1.0 - iIntFactor) * int2);
    }

    /** Coarse row {@code ic > 1} of {@link #rescal} from column 2 on: points whose fine neighbours are all local. */
    private void restrictInterior(final int ic)
    {
        final DoubleReadView t2a = fineQ;
        final DoubleReadView t2b = fineRhs;
        final DoubleView t2c = out;
        final int fc = this.fc;
        final int jOff = this.jOff;
        final double jCoeff = this.jCoeff;
        final double factor = this.factor;
        final int jcEnd = jend + 1;
        final int if17 = 2 * ic;
        final double iIntFactor = (ic + iOff) * iCoeff * 0.5;
        final int a = if17 * fc;
        final int d = a - fc;
        final int e = a + fc;
        final int f = a - 2 * fc;
        final int gg = a - 3 * fc;
        final int c = ic * cc;
        for (int jc = 2; jc < jcEnd; jc++)
        {
            final int jf = 2 * jc;
            final double jIntFactor = (jc + jOff) * jCoeff * 0.5;
            double s = t2a.get(a + jf + 1) + t2a.get(a + jf - 1) + t2a.get(d + jf) + t2a.get(e + jf);
            final double s1 = 2.0 * (t2b.get(a + jf) - s + factor * t2a.get(a + jf));
            s = t2a.get(a + jf - 1) + t2a.get(a + jf - 3) + t2a.get(d + jf - 2) + t2a.get(e + jf - 2);
            final double s2 = 2.0 * (t2b.get(a + jf - 2) - s + factor * t2a.get(a + jf - 2));
            s = t2a.get(f + jf + 1) + t2a.get(f + jf - 1) + t2a.get(gg + jf) + t2a.get(d + jf);
            final double s3 = 2.0 * (t2b.get(f + jf) - s + factor * t2a.get(f + jf));
            s = t2a.get(f + jf - 1) + t2a.get(f + jf - 3) + t2a.get(gg + jf - 2) + t2a.get(d + jf - 2);
            final double s4 = 2.0 * (t2b.get(f + jf - 2) - s + factor * t2a.get(f + jf - 2));
            final double int1 = jIntFactor * s4 + (1.0 - jIntFactor) * s3;
            final double int2 = jIntFactor * s2 + (1.0 - jIntFactor) * s1;
            t2c.set(c + jc, iIntFactor * int1 + (1.0 - iIntFactor) * int2);
        }
    }

    /**
     * The C {@code intadd}: the solution of level {@code kc} interpolated and added to level {@code kc + 1}; the
     * borders of level {@code kc} hold the neighbours' points.
     *
     * @param kc the coarser level.
     */
    void intadd(final int kc)
    {
        final int kf = kc + 1;
        final int iend = g.yptsPerProc[kc];
        jend = g.xptsPerProc[kc];
        iOff = rownum * g.yptsPerProc[kc];
        jOff = colnum * g.xptsPerProc[kc];
        cc = g.blockCols(kc);
        fc = g.blockCols(kf);
        coarseQ = views.read(0, q[kc][procid]);
        out = views.update(0, q[kf][procid], fc + 1, 2 * iend * fc + 2 * jend + 1);
        iCoeff = g.iIntCoeff[kf];
        jCoeff = g.jIntCoeff[kf];
        imxc = g.imx[kc] - 2;
        jmxc = g.jmx[kc] - 2;
        final int icEnd = iend + 1;
        for (int ic = 1; ic < icEnd; ic++)
        {
            interpolateRow(ic);
        }
    }

    private void interpolateRow(final int ic)
    {
        final DoubleReadView t2a = coarseQ;
        final DoubleView t2b = out;
        final int jOff = this.jOff;
        final double jCoeff = this.jCoeff;
        final int jmxc = this.jmxc;
        final int jcEnd = jend + 1;
        final int if17 = 2 * ic;
        final double iIntFactor1 = (imxc - (ic + iOff - 1)) * iCoeff;
        final double iIntFactor2 = (ic + iOff) * iCoeff;
        final int a = ic * cc;
        final int b = a - cc;
        final int c = a + cc;
        final int d = if17 * fc;
        final int e = d - fc;
        int jf = 0;
        for (int jc = 1; jc < jcEnd; jc++)
        {
            jf += 2;
            final double jIntFactor1 = (jmxc - (jc + jOff - 1)) * jCoeff;
            final double jIntFactor2 = (jc + jOff) * jCoeff;
            final double aM = t2a.get(a + jc - 1);
            final double aC = t2a.get(a + jc);
            final double aP = t2a.get(a + jc + 1);
            final double bM = t2a.get(b + jc - 1);
            final double bC = t2a.get(b + jc);
            final double bP = t2a.get(b + jc + 1);
            final double cM = t2a.get(c + jc - 1);
            final double cC = t2a.get(c + jc);
            final double cP = t2a.get(c + jc + 1);

            double int1 = jIntFactor1 * aM + (1.0 - jIntFactor1) * aC;
            double int2 = jIntFactor1 * bM + (1.0 - jIntFactor1) * bC;
            t2b.set(e + jf - 1, t2b.get(e + jf - 1) + (iIntFactor1 * int2 + (1.0 - iIntFactor1) * int1));
            int2 = jIntFactor1 * cM + (1.0 - jIntFactor1) * cC;
            t2b.set(d + jf - 1, t2b.get(d + jf - 1) + (iIntFactor2 * int2 + (1.0 - iIntFactor2) * int1));
            int1 = jIntFactor2 * aP + (1.0 - jIntFactor2) * aC;
            int2 = jIntFactor2 * bP + (1.0 - jIntFactor2) * bC;
            t2b.set(e + jf, t2b.get(e + jf) + (iIntFactor1 * int2 + (1.0 - iIntFactor1) * int1));
            int2 = jIntFactor2 * cP + (1.0 - jIntFactor2) * cC;
            t2b.set(d + jf, t2b.get(d + jf) + (iIntFactor2 * int2 + (1.0 - iIntFactor2) * int1));
        }
    }
}
