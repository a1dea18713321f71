package org.viadsm.examples.ocean;

import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;

/**
 * The point-wise loops of a time step, one row segment {@code [from, to)} of a block at a time. Each is a small
 * method called once per row, many times per time step, so that the JIT compiles it as a plain method early in a
 * JVM's first run and keeps it compiled in the next runs: as loops of the phases, which run a few dozen times per
 * run, they were compiled first from a loop entered in the interpreter and then once more as methods in a later
 * run, a second large compilation that took the CPU from the other node of a 2-core machine. Each computes its
 * point's value with the C expression as written, so the results are the same bit for bit.
 */
final class RowKernels
{
    private RowKernels()
    {
    }

    /**
     * {@code out = a - b}.
     *
     * @param out  update view of the block written.
     * @param a    read view of the first block.
     * @param b    read view of the second block.
     * @param from first point.
     * @param to   end point, exclusive.
     */
    static void difference(
        final DoubleView out, final DoubleReadView a, final DoubleReadView b, final int from, final int to)
    {
        for (int x = from; x < to; x++)
        {
            out.set(x, a.get(x) - b.get(x));
        }
    }

    /**
     * {@code a = wa * a + wb * b}.
     *
     * @param a    update view of the block updated.
     * @param wa   the weight of {@code a}.
     * @param b    read view of the block added.
     * @param wb   the weight of {@code b}.
     * @param from first point.
     * @param to   end point, exclusive.
     */
    static void weightedSum(
        final DoubleView a, final double wa, final DoubleReadView b, final double wb, final int from, final int to)
    {
        for (int x = from; x < to; x++)
        {
            a.set(x, wa * a.get(x) + wb * b.get(x));
        }
    }

    /**
     * {@code a = a + scale * b}.
     *
     * @param a     update view of the block updated.
     * @param scale the factor.
     * @param b     read view of the block added.
     * @param from  first point.
     * @param to    end point, exclusive.
     */
    static void addScaled(
        final DoubleView a, final double scale, final DoubleReadView b, final int from, final int to)
    {
        for (int x = from; x < to; x++)
        {
            a.set(x, a.get(x) + scale * b.get(x));
        }
    }

    /**
     * {@code a[x] = a[x] + f[x + shift]}: a row of the Coriolis parameter added along the row.
     *
     * @param a     update view of the block updated.
     * @param f     the values added.
     * @param shift the index in {@code f} of point 0.
     * @param from  first point.
     * @param to    end point, exclusive.
     */
    static void add(final DoubleView a, final double[] f, final int shift, final int from, final int to)
    {
        for (int x = from; x < to; x++)
        {
            a.set(x, a.get(x) + f[x + shift]);
        }
    }

    /**
     * {@code out = in * scale}.
     *
     * @param out   update view of the block written.
     * @param in    read view of the block scaled.
     * @param scale the factor.
     * @param from  first point.
     * @param to    end point, exclusive.
     */
    static void scale(
        final DoubleView out, final DoubleReadView in, final double scale, final int from, final int to)
    {
        for (int x = from; x < to; x++)
        {
            out.set(x, in.get(x) * scale);
        }
    }

    /**
     * The running sum {@code sum + a[from] + ... + a[to - 1]}, added in that order.
     *
     * @param a    read view of the block summed.
     * @param sum  the sum so far.
     * @param from first point.
     * @param to   end point, exclusive.
     * @return the sum with the row's points added.
     */
    static double sum(final DoubleReadView a, final double sum, final int from, final int to)
    {
        double s = sum;
        for (int x = from; x < to; x++)
        {
            s = s + a.get(x);
        }
        return s;
    }

    /**
     * The C fifth phase's two right-hand sides: {@code ga} and {@code gb} from the Jacobians ({@code work5},
     * {@code work6}), the friction terms ({@code work7}) and the wind stress ({@code tauz}).
     *
     * @param ga    update view of ga.
     * @param gb    update view of gb.
     * @param w51   read view of work5 of psi1.
     * @param w53   read view of work5 of psi3.
     * @param w71   read view of work7 of psi1.
     * @param w73   read view of work7 of psi3.
     * @param w6    read view of work6.
     * @param tauz  read view of tauz.
     * @param c     the run's constants.
     * @param from  first point.
     * @param to    end point, exclusive.
     */
    static void rightHandSides(
        final DoubleView ga,
        final DoubleView gb,
        final DoubleReadView w51,
        final DoubleReadView w53,
        final DoubleReadView w71,
        final DoubleReadView w73,
        final DoubleReadView w6,
        final DoubleReadView tauz,
        final OceanConstants c,
        final int from,
        final int to)
    {
        final double eig2 = c.eig2;
        final double h1inv = 1.0 / OceanConstants.H1;
        final double hinv = 1.0 / OceanConstants.H;
        final double lf = OceanConstants.LF;
        final double hh1 = c.hh1;
        final double hh3 = c.hh3;
        for (int x = from; x < to; x++)
        {
            final double vc = w51.get(x);
            final double vd = w53.get(x);
            final double ve = w71.get(x);
            final double vf = w73.get(x);
            final double vh = tauz.get(x);
            ga.set(x, vc - vd + eig2 * w6.get(x) + h1inv * vh + lf * ve - lf * vf);
            gb.set(x, hh1 * vc + hh3 * vd + hinv * vh + lf * hh1 * ve + lf * hh3 * vf);
        }
    }

    /**
     * The C ninth phase: {@code work3 = gb + hh3 * ga} and {@code work2 = gb - hh1 * ga}.
     *
     * @param ga    read view of ga.
     * @param gb    read view of gb.
     * @param work2 update view of work2.
     * @param work3 update view of work3.
     * @param hh1   h1 / h.
     * @param hh3   h3 / h.
     * @param from  first point.
     * @param to    end point, exclusive.
     */
    static void layers(
        final DoubleReadView ga,
        final DoubleReadView gb,
        final DoubleView work2,
        final DoubleView work3,
        final double hh1,
        final double hh3,
        final int from,
        final int to)
    {
        for (int x = from; x < to; x++)
        {
            final double va = ga.get(x);
            final double vb = gb.get(x);
            work3.set(x, vb + hh3 * va);
            work2.set(x, vb - hh1 * va);
        }
    }
}
