package org.viadsm.examples.barnes;

import java.io.PrintStream;
import java.util.Arrays;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.LongArray;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.Team;

/**
 * The C's {@code output()} and {@code diagnostics()} ({@code code_io.c}): each processor sums the energies, energy
 * tensors, centre-of-mass position and velocity and angular momentum of its bodies, adds them into {@code Global}
 * under {@code CountLock}, and waits at the {@code Baraccel} barrier; then the master prints one line.
 * <p>
 * Splash-3 defines {@code output()} but never calls it, and never clears {@code Global}'s sums. The port calls it
 * every step between the force computation and the position update, where {@code Baraccel} ("barrier after accel
 * and before output") and Barnes's original treecode put it, prints the line the C does not, and has the master
 * clear the sums after printing. The port also adds to {@code Global}, in the same critical section, the count,
 * sum and square sum of the indices of the bodies each processor holds, for {@link BarnesCheck}.
 * <p>
 * <b>Note:</b> used by one member's thread.
 */
final class Diagnostics
{
    static final String HEADER_FORMAT = "%6s%10s%16s%16s%16s%16s%16s%10s%10s%8s\n";
    static final String LINE_FORMAT = "%6ld%10.4f%16.10f%16.10f%16.10f%16.10f%16.10f%10ld%10ld%8ld\n";

    private static final int NDIM = 3;

    private final Team team;
    private final BarnesCheck check;
    private final DoubleArray bodies;
    private final DoubleArray global;
    private final LongArray counts;
    private final IntArray mybodytab;
    private final int bodyTabBase;

    private double mymtot;
    private final double[] myetot = new double[NDIM];
    private final double[] myketen = new double[NDIM * NDIM];
    private final double[] mypeten = new double[NDIM * NDIM];
    private final double[] mycmphase = new double[2 * NDIM];
    private final double[] myamvec = new double[NDIM];
    private final double[] tmpv = new double[NDIM];
    private long bodySum;
    private long bodySquareSum;

    Diagnostics(final Team team, final BarnesShared shared, final BarnesCheck check)
    {
        this.team = team;
        this.check = check;
        this.bodies = shared.bodies;
        this.global = shared.global;
        this.counts = shared.counts;
        this.mybodytab = shared.mybodytab;
        this.bodyTabBase = team.id() * shared.maxmybody;
    }

    static void printHeader(final PrintStream out)
    {
        out.print(CFormat.format(HEADER_FORMAT, "step", "tnow", "T+U", "T", "U", "|cm pos|", "|cm vel|",
            "n2bcalc", "nbccalc", "selfint"));
    }

    /**
     * {@code output()}; {@code n2bcalc}, {@code nbccalc} and {@code selfint} are this processor's interaction
     * counts of the step.
     */
    void output(final BarnesMember member, final long n2bcalc, final long nbccalc, final long selfint)
    {
        diagnostics(member.mynbody);
        if (0 != mymtot)
        {
            team.lock(GlobalLayout.COUNT_LOCK);
            add(GlobalLayout.N2BCALC_OFFSET, n2bcalc);
            add(GlobalLayout.NBCCALC_OFFSET, nbccalc);
            add(GlobalLayout.SELFINT_OFFSET, selfint);
            for (int i = 0; i < NDIM * NDIM; i++)
            {
                global.set(GlobalLayout.KETEN_OFFSET + i, global.get(GlobalLayout.KETEN_OFFSET + i) + myketen[i]);
            }
            for (int i = 0; i < NDIM * NDIM; i++)
            {
                global.set(GlobalLayout.PETEN_OFFSET + i, global.get(GlobalLayout.PETEN_OFFSET + i) + mypeten[i]);
            }
            for (int k = 0; k < NDIM; k++)
            {
                global.set(GlobalLayout.ETOT_OFFSET + k, global.get(GlobalLayout.ETOT_OFFSET + k) + myetot[k]);
            }
            for (int k = 0; k < NDIM; k++)
            {
                global.set(GlobalLayout.AMVEC_OFFSET + k, global.get(GlobalLayout.AMVEC_OFFSET + k) + myamvec[k]);
            }
            final double mtot = global.get(GlobalLayout.MTOT_OFFSET);
            for (int h = 0; h < 2 * NDIM; h += NDIM)
            {
                for (int k = 0; k < NDIM; k++)
                {
                    final double tempv1 = global.get(GlobalLayout.CMPHASE_OFFSET + h + k) * mtot;
                    final double tempv2 = mycmphase[h + k] * mymtot;
                    global.set(GlobalLayout.CMPHASE_OFFSET + h + k, (tempv1 + tempv2) / (mtot + mymtot));
                }
            }
            global.set(GlobalLayout.MTOT_OFFSET, mtot + mymtot);
            add(GlobalLayout.BODY_COUNT_OFFSET, member.mynbody);
            add(GlobalLayout.BODY_SUM_OFFSET, bodySum);
            add(GlobalLayout.BODY_SQUARE_SUM_OFFSET, bodySquareSum);
            team.unlock(GlobalLayout.COUNT_LOCK);
        }

        team.barrier();

        if (0 == team.id())
        {
            printAndClear(member);
        }
    }

    private void add(final int offset, final long value)
    {
        counts.set(offset, counts.get(offset) + value);
    }

    private void printAndClear(final BarnesMember member)
    {
        final double etot = global.get(GlobalLayout.ETOT_OFFSET);
        final double kinetic = global.get(GlobalLayout.ETOT_OFFSET + 1);
        final double potential = global.get(GlobalLayout.ETOT_OFFSET + 2);
        final double cmpos = absv(GlobalLayout.CMPHASE_OFFSET);
        final double cmvel = absv(GlobalLayout.CMPHASE_OFFSET + NDIM);
        final long n2bcalc = counts.get(GlobalLayout.N2BCALC_OFFSET);
        final long nbccalc = counts.get(GlobalLayout.NBCCALC_OFFSET);
        final long selfint = counts.get(GlobalLayout.SELFINT_OFFSET);
        team.out().print(CFormat.format(LINE_FORMAT, member.nstep, member.tnow, etot, kinetic, potential, cmpos,
            cmvel, n2bcalc, nbccalc, selfint));
        check.onOutput(member.nstep, global.get(GlobalLayout.MTOT_OFFSET), etot, kinetic, potential, cmpos, cmvel,
            counts.get(GlobalLayout.BODY_COUNT_OFFSET), counts.get(GlobalLayout.BODY_SUM_OFFSET),
            counts.get(GlobalLayout.BODY_SQUARE_SUM_OFFSET));

        global.fill(GlobalLayout.MTOT_OFFSET, GlobalLayout.AMVEC_OFFSET + NDIM, 0.0);
        for (int i = GlobalLayout.N2BCALC_OFFSET; i < GlobalLayout.COUNTS_LENGTH; i++)
        {
            counts.set(i, 0L);
        }
    }

    /**
     * {@code ABSV}: the length of the global vector at {@code offset}.
     */
    private double absv(final int offset)
    {
        double tmp = 0.0;
        for (int i = 0; i < NDIM; i++)
        {
            final double v = global.get(offset + i);
            tmp += v * v;
        }
        return Math.sqrt(tmp);
    }

    /**
     * {@code diagnostics()}: this processor's sums over its bodies, last to first.
     */
    private void diagnostics(final int mynbody)
    {
        mymtot = 0.0;
        myetot[1] = 0.0;
        myetot[2] = 0.0;
        Arrays.fill(myketen, 0.0);
        Arrays.fill(mypeten, 0.0);
        Arrays.fill(mycmphase, 0.0);
        Arrays.fill(myamvec, 0.0);
        bodySum = 0;
        bodySquareSum = 0;
        final DoubleArray bodies = this.bodies;
        for (int t = mynbody - 1; t >= 0; t--)
        {
            final int p = NodeRef.index(mybodytab.get(bodyTabBase + t));
            bodySum += p;
            bodySquareSum += (long)p * p;
            final int base = p * BodyLayout.REAL_STRIDE;
            final double mass = bodies.get(base + BodyLayout.MASS_OFFSET);
            final double px = bodies.get(base + BodyLayout.POS_OFFSET);
            final double py = bodies.get(base + BodyLayout.POS_OFFSET + 1);
            final double pz = bodies.get(base + BodyLayout.POS_OFFSET + 2);
            final double vx = bodies.get(base + BodyLayout.VEL_OFFSET);
            final double vy = bodies.get(base + BodyLayout.VEL_OFFSET + 1);
            final double vz = bodies.get(base + BodyLayout.VEL_OFFSET + 2);
            final double ax = bodies.get(base + BodyLayout.ACC_OFFSET);
            final double ay = bodies.get(base + BodyLayout.ACC_OFFSET + 1);
            final double az = bodies.get(base + BodyLayout.ACC_OFFSET + 2);
            mymtot += mass;
            double velsq = vx * vx;
            velsq += vy * vy;
            velsq += vz * vz;
            myetot[1] += 0.5 * mass * velsq;
            myetot[2] += 0.5 * mass * bodies.get(base + BodyLayout.PHI_OFFSET);
            final double halfMass = 0.5 * mass;
            outer(myketen, vx * halfMass, vy * halfMass, vz * halfMass, vx, vy, vz);
            outer(mypeten, px * mass, py * mass, pz * mass, ax, ay, az);
            mycmphase[0] = mycmphase[0] + px * mass;
            mycmphase[1] = mycmphase[1] + py * mass;
            mycmphase[2] = mycmphase[2] + pz * mass;
            mycmphase[NDIM] = mycmphase[NDIM] + vx * mass;
            mycmphase[NDIM + 1] = mycmphase[NDIM + 1] + vy * mass;
            mycmphase[NDIM + 2] = mycmphase[NDIM + 2] + vz * mass;
            tmpv[0] = py * vz - pz * vy;
            tmpv[1] = pz * vx - px * vz;
            tmpv[2] = px * vy - py * vx;
            for (int k = 0; k < NDIM; k++)
            {
                myamvec[k] = myamvec[k] + tmpv[k] * mass;
            }
        }
        myetot[0] = myetot[1] + myetot[2];
        if (0 != mymtot)
        {
            for (int k = 0; k < 2 * NDIM; k++)
            {
                mycmphase[k] = mycmphase[k] / mymtot;
            }
        }
    }

    /**
     * {@code OUTVP} into a temporary, then {@code ADDM} into {@code sum}: sum[i][j] += u[i] * w[j].
     */
    private static void outer(
        final double[] sum,
        final double u0,
        final double u1,
        final double u2,
        final double w0,
        final double w1,
        final double w2)
    {
        sum[0] = sum[0] + u0 * w0;
        sum[1] = sum[1] + u0 * w1;
        sum[2] = sum[2] + u0 * w2;
        sum[3] = sum[3] + u1 * w0;
        sum[4] = sum[4] + u1 * w1;
        sum[5] = sum[5] + u1 * w2;
        sum[6] = sum[6] + u2 * w0;
        sum[7] = sum[7] + u2 * w1;
        sum[8] = sum[8] + u2 * w2;
    }
}
