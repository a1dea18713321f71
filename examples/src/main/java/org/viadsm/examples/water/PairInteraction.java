package org.viadsm.examples.water;

import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;

import static org.viadsm.examples.water.MoleculeLayout.COORDINATES;
import static org.viadsm.examples.water.MoleculeLayout.F_OFFSET;
import static org.viadsm.examples.water.MoleculeLayout.H1;
import static org.viadsm.examples.water.MoleculeLayout.H2;
import static org.viadsm.examples.water.MoleculeLayout.NATOM;
import static org.viadsm.examples.water.MoleculeLayout.O;
import static org.viadsm.examples.water.WaterConstants.A1;
import static org.viadsm.examples.water.WaterConstants.A2;
import static org.viadsm.examples.water.WaterConstants.A3;
import static org.viadsm.examples.water.WaterConstants.A4;
import static org.viadsm.examples.water.WaterConstants.AB1;
import static org.viadsm.examples.water.WaterConstants.AB2;
import static org.viadsm.examples.water.WaterConstants.AB3;
import static org.viadsm.examples.water.WaterConstants.AB4;
import static org.viadsm.examples.water.WaterConstants.B1;
import static org.viadsm.examples.water.WaterConstants.B2;
import static org.viadsm.examples.water.WaterConstants.B3;
import static org.viadsm.examples.water.WaterConstants.B4;
import static org.viadsm.examples.water.WaterConstants.C1;
import static org.viadsm.examples.water.WaterConstants.C2;
import static org.viadsm.examples.water.WaterConstants.QQ;
import static org.viadsm.examples.water.WaterConstants.QQ2;
import static org.viadsm.examples.water.WaterConstants.QQ4;

/**
 * The interaction of one pair of molecules, as the WATER programs compute it in {@code INTERF} (forces, with
 * {@code UPDATE_FORCES}) and {@code POTENG} (energy): {@code CSHIFT}'s 14 site-to-site distances under periodic
 * boundaries, the cutoff test on the first 9, the Coulomb and reaction-field terms, and the exponential terms when
 * every site pair is inside the cutoff. The distances are ordered M-M, M-H1, M-H2, H1-M, H2-M, H1-H1, H1-H2, H2-H1,
 * H2-H2, O-O, O-H1, O-H2, H1-O, H2-O (M = centre of charge).
 * <p>
 * Usage: {@link #first(DoubleReadView, int)} and {@link #second(DoubleReadView, int)} load the two molecules' VM and
 * displacements from views of their records; {@link #forces()} computes the pair's forces, adding to the running
 * virial, and when it returns true {@link #addToFirst(DoubleView, int)} and {@link #addToSecond(DoubleView, int)}
 * add them to update views of force records; {@link #potential()} adds to the running energies. The running sums
 * are the C programs' per-process partial sums, accumulated in the C order.
 * <p>
 * <b>Note:</b> holds scratch space and sums: one instance per team member.
 */
public final class PairInteraction
{
    private static final int DISTANCES = 14;
    private static final int CUTOFF_TESTED = 9;
    private static final int LENGTH = 15;

    private final double boxh;
    private final double boxl;
    private final long boxhBits;
    private final double cutoff;
    private final double cut2;
    private final double ref1;
    private final double ref2;
    private final double ref4;
    private final double[] a = new double[COORDINATES];
    private double[] first = a;
    private int firstOffset;
    private final double[] b = new double[COORDINATES];
    private final double[] xl = new double[LENGTH];
    private final double[] yl = new double[LENGTH];
    private final double[] zl = new double[LENGTH];
    private final double[] rs = new double[LENGTH];
    private final double[] rl = new double[LENGTH];
    private final double[] ff = new double[LENGTH];
    private final double[] delta = new double[NATOM];
    private double virial;
    private double potr;
    private double potrf;

    /**
     * Creates the scratch space of one member.
     *
     * @param system the run's constants.
     */
    public PairInteraction(final WaterSystem system)
    {
        boxh = system.boxh();
        boxl = system.boxl();
        boxhBits = Double.doubleToRawLongBits(boxh);
        cutoff = system.cutoff();
        cut2 = system.cut2();
        ref1 = system.ref1();
        ref2 = system.ref2();
        ref4 = system.ref4();
    }

    /**
     * Loads the first molecule of the pair ({@code mol} in WATER-NSQUARED, {@code curr_ptr} in WATER-SPATIAL).
     *
     * @param var  a view of its record's first {@link MoleculeLayout#COORDINATES} doubles.
     * @param base offset of its record.
     */
    public void first(final DoubleReadView var, final int base)
    {
        load(var, base, a);
        first = a;
        firstOffset = 0;
    }

    /**
     * Uses as the first molecule of the pair a copy of its VM and displacements (the first
     * {@link MoleculeLayout#COORDINATES} doubles of its record) that the caller holds; the copy must stay unchanged
     * while it is in use.
     *
     * @param coordinates the copies.
     * @param offset      where this molecule's copy starts.
     */
    public void first(final double[] coordinates, final int offset)
    {
        first = coordinates;
        firstOffset = offset;
    }

    /**
     * Loads the second molecule of the pair.
     *
     * @param var  a view of its record's first {@link MoleculeLayout#COORDINATES} doubles.
     * @param base offset of its record.
     */
    public void second(final DoubleReadView var, final int base)
    {
        load(var, base, b);
    }

    private static void load(final DoubleReadView var, final int base, final double[] dst)
    {
        for (int i = 0; i < COORDINATES; i++)
        {
            dst[i] = var.get(base + i);
        }
    }

    /**
     * Zeroes the running sums, as a C routine's locals start at 0.
     */
    public void resetSums()
    {
        virial = 0.0;
        potr = 0.0;
        potrf = 0.0;
    }

    /**
     * The running virial of {@link #forces()} (INTERF's LVIR).
     *
     * @return the sum.
     */
    public double virial()
    {
        return virial;
    }

    /**
     * The running intermolecular energy of {@link #potential()} (POTENG's LPOTR).
     *
     * @return the sum.
     */
    public double potr()
    {
        return potr;
    }

    /**
     * The running reaction-field energy of {@link #potential()} (POTENG's LPTRF).
     *
     * @return the sum.
     */
    public double potrf()
    {
        return potrf;
    }

    /**
     * {@code INTERF}'s pair body: the site-to-site force factors, added to the running virial.
     *
     * @return false if every site pair is beyond the cutoff (nothing to add).
     */
    public boolean forces()
    {
        final double[] rs = this.rs;
        final double[] rl = this.rl;
        final double[] ff = this.ff;
        final int kc = distances();
        if (CUTOFF_TESTED == kc)
        {
            return false;
        }
        double lvir = virial;
        for (int k = 0; k < DISTANCES; k++)
        {
            ff[k] = 0.0;
        }
        if (rs[0] < cut2)
        {
            ff[0] = QQ4 / (rs[0] * Math.sqrt(rs[0])) + ref4;
            lvir = lvir + ff[0] * rs[0];
        }
        for (int k = 1; k < 5; k++)
        {
            if (rs[k] < cut2)
            {
                ff[k] = -QQ2 / (rs[k] * Math.sqrt(rs[k])) - ref2;
                lvir = lvir + ff[k] * rs[k];
            }
            if (rs[k + 4] <= cut2)
            {
                rl[k + 4] = Math.sqrt(rs[k + 4]);
                ff[k + 4] = QQ / (rs[k + 4] * rl[k + 4]) + ref1;
                lvir = lvir + ff[k + 4] * rs[k + 4];
            }
        }
        if (0 == kc)
        {
            rs[9] = xl[9] * xl[9] + yl[9] * yl[9] + zl[9] * zl[9];
            rl[9] = Math.sqrt(rs[9]);
            ff[9] = AB1 * Math.exp(-B1 * rl[9]) / rl[9];
            lvir = lvir + ff[9] * rs[9];
            for (int k = 10; k < DISTANCES; k++)
            {
                final double ftemp = AB2 * Math.exp(-B2 * rl[k - 5]) / rl[k - 5];
                ff[k - 5] = ff[k - 5] + ftemp;
                lvir = lvir + ftemp * rs[k - 5];
                rs[k] = xl[k] * xl[k] + yl[k] * yl[k] + zl[k] * zl[k];
                rl[k] = Math.sqrt(rs[k]);
                ff[k] = (AB3 * Math.exp(-B3 * rl[k]) - AB4 * Math.exp(-B4 * rl[k])) / rl[k];
                lvir = lvir + ff[k] * rs[k];
            }
        }
        virial = lvir;
        return true;
    }

    /**
     * {@code UPDATE_FORCES} for the first molecule: adds the pair's forces on its atoms to
     * {@code dst[offset + 3 * dir + atom]}.
     *
     * @param dst    an update view of the force block (a molecule's F[DEST], or a private force record).
     * @param offset offset of the molecule's [dir][atom] block.
     */
    public void addToFirst(final DoubleView dst, final int offset)
    {
        addToFirst(dst, offset, 0, xl);
        addToFirst(dst, offset, 1, yl);
        addToFirst(dst, offset, 2, zl);
    }

    /**
     * {@code UPDATE_FORCES} for the second molecule (WATER-NSQUARED only: WATER-SPATIAL computes every pair from
     * both ends).
     *
     * @param dst    an update view of the force block.
     * @param offset offset of the molecule's [dir][atom] block.
     */
    public void addToSecond(final DoubleView dst, final int offset)
    {
        addToSecond(dst, offset, 0, xl);
        addToSecond(dst, offset, 1, yl);
        addToSecond(dst, offset, 2, zl);
    }

    private void addToFirst(final DoubleView dst, final int offset, final int dir, final double[] l)
    {
        final double[] ff = this.ff;
        final double gg1 = ff[0] * l[0];
        final double gg2 = ff[1] * l[1];
        final double gg3 = ff[2] * l[2];
        final double g110 = ff[9] * l[9] + gg1 * C1;
        final double g23 = gg2 + gg3;
        final double tt1 = gg1 * C2;
        final double tt = g23 * C2 + tt1;
        final double[] d = delta;
        d[H1] = ff[5] * l[5] + ff[6] * l[6] + ff[12] * l[12] + tt + ff[3] * l[3];
        d[O] = g110 + ff[10] * l[10] + ff[11] * l[11] + C1 * g23;
        d[H2] = ff[7] * l[7] + ff[8] * l[8] + ff[13] * l[13] + tt + ff[4] * l[4];
        add(dst, offset + dir * NATOM, d);
    }

    private void addToSecond(final DoubleView dst, final int offset, final int dir, final double[] l)
    {
        final double[] ff = this.ff;
        final double gg1 = ff[0] * l[0];
        final double gg4 = ff[3] * l[3];
        final double gg5 = ff[4] * l[4];
        final double g110 = ff[9] * l[9] + gg1 * C1;
        final double g45 = gg4 + gg5;
        final double tt1 = gg1 * C2;
        final double tt2 = g45 * C2 + tt1;
        final double[] d = delta;
        d[H1] = -(ff[5] * l[5]) - ff[7] * l[7] - ff[10] * l[10] - tt2 - ff[1] * l[1];
        d[O] = -g110 - ff[12] * l[12] - ff[13] * l[13] - C1 * g45;
        d[H2] = -(ff[6] * l[6]) - ff[8] * l[8] - ff[11] * l[11] - tt2 - ff[2] * l[2];
        add(dst, offset + dir * NATOM, d);
    }

    private static void add(final DoubleView dst, final int at, final double[] d)
    {
        dst.set(at + H1, dst.get(at + H1) + d[H1]);
        dst.set(at + O, dst.get(at + O) + d[O]);
        dst.set(at + H2, dst.get(at + H2) + d[H2]);
    }

    /**
     * {@code POTENG}'s pair body: adds the pair's Coulomb, reaction-field and exponential energies to the running
     * sums.
     */
    public void potential()
    {
        final double[] rs = this.rs;
        final double[] rl = this.rl;
        final int kc = distances();
        if (CUTOFF_TESTED == kc)
        {
            return;
        }
        for (int k = 0; k < CUTOFF_TESTED; k++)
        {
            if (rs[k] <= cut2)
            {
                rl[k] = Math.sqrt(rs[k]);
            }
            else
            {
                rl[k] = cutoff;
                rs[k] = cut2;
            }
        }
        double lpotr = potr - QQ2 / rl[1] - QQ2 / rl[2] - QQ2 / rl[3] - QQ2 / rl[4] +
            QQ / rl[5] + QQ / rl[6] + QQ / rl[7] + QQ / rl[8] +
            QQ4 / rl[0];
        potrf = potrf - ref2 * rs[0] - ref1 * ((rs[5] + rs[6] + rs[7] + rs[8]) * 0.5 -
            rs[1] - rs[2] - rs[3] - rs[4]);
        if (kc <= 0)
        {
            for (int k = 9; k < DISTANCES; k++)
            {
                rl[k] = Math.sqrt(xl[k] * xl[k] + yl[k] * yl[k] + zl[k] * zl[k]);
            }
            lpotr = lpotr + A1 * Math.exp(-B1 * rl[9]) +
                A2 * (Math.exp(-B2 * rl[5]) + Math.exp(-B2 * rl[6]) +
                Math.exp(-B2 * rl[7]) + Math.exp(-B2 * rl[8])) +
                A3 * (Math.exp(-B3 * rl[10]) + Math.exp(-B3 * rl[11]) +
                Math.exp(-B3 * rl[12]) + Math.exp(-B3 * rl[13])) -
                A4 * (Math.exp(-B4 * rl[10]) + Math.exp(-B4 * rl[11]) +
                Math.exp(-B4 * rl[12]) + Math.exp(-B4 * rl[13]));
        }
        potr = lpotr;
    }

    /**
     * {@code CSHIFT} in the three directions, then the squared distances of the first 9 site pairs. The other 5
     * distances are computed only when some of the 9 are inside the cutoff: otherwise nothing reads them.
     *
     * @return how many of those 9 are beyond the cutoff (KC).
     */
    private int distances()
    {
        final double[] xl = this.xl;
        final double[] yl = this.yl;
        final double[] zl = this.zl;
        final double[] rs = this.rs;
        shiftSites(0, xl);
        shiftSites(1, yl);
        shiftSites(2, zl);
        int kc = 0;
        for (int k = 0; k < CUTOFF_TESTED; k++)
        {
            rs[k] = xl[k] * xl[k] + yl[k] * yl[k] + zl[k] * zl[k];
            if (rs[k] > cut2)
            {
                kc++;
            }
        }
        if (CUTOFF_TESTED != kc)
        {
            shiftOxygen(0, xl);
            shiftOxygen(1, yl);
            shiftOxygen(2, zl);
        }
        return kc;
    }

    /**
     * CSHIFT's distances 0 to 8: M-M, M-H, H-M and H-H.
     */
    private void shiftSites(final int dir, final double[] l)
    {
        final double[] a = this.first;
        final double[] b = this.b;
        final int at = F_OFFSET + dir * NATOM;
        final double xma = a[firstOffset + dir];
        final double xmb = b[dir];
        final double ah1 = a[firstOffset + at + H1];
        final double ah2 = a[firstOffset + at + H2];
        final double bh1 = b[at + H1];
        final double bh2 = b[at + H2];
        l[0] = periodic(xma - xmb);
        l[1] = periodic(xma - bh1);
        l[2] = periodic(xma - bh2);
        l[3] = periodic(ah1 - xmb);
        l[4] = periodic(ah2 - xmb);
        l[5] = periodic(ah1 - bh1);
        l[6] = periodic(ah1 - bh2);
        l[7] = periodic(ah2 - bh1);
        l[8] = periodic(ah2 - bh2);
    }

    /**
     * CSHIFT's distances 9 to 13: O-O, O-H and H-O.
     */
    private void shiftOxygen(final int dir, final double[] l)
    {
        final double[] a = this.first;
        final double[] b = this.b;
        final int at = firstOffset + F_OFFSET + dir * NATOM;
        final int bt = F_OFFSET + dir * NATOM;
        final double ao = a[at + O];
        final double bo = b[bt + O];
        l[9] = periodic(ao - bo);
        l[10] = periodic(ao - b[bt + H1]);
        l[11] = periodic(ao - b[bt + H2]);
        l[12] = periodic(a[at + H1] - bo);
        l[13] = periodic(a[at + H2] - bo);
    }

    /**
     * CSHIFT's periodic image: XL - sign(BOXL, XL) when |XL| &gt; BOXH, i.e. XL + BOXL for a negative XL and
     * XL - BOXL otherwise (XL - (-BOXL) and XL + BOXL round identically; XL - 0.0 is XL, -0.0 included).
     * Computed without a branch: whether the image wraps depends on the pair and on the step, so a branch's
     * profile from the first run would not hold in later ones and its compiled code would be discarded.
     * The shift is -1, 0 or +1 BOXL from the bits: |XL| &gt; BOXH compares the magnitudes' bits (ordered as the
     * non-negative doubles are; a NaN XL stays NaN either way), the sign bit picks the direction.
     */
    private double periodic(final double x)
    {
        final long bits = Double.doubleToRawLongBits(x);
        final long beyond = (boxhBits - (bits & Long.MAX_VALUE)) >>> 63;
        return x - (beyond * (1 | (bits >> 63))) * boxl;
    }
}
