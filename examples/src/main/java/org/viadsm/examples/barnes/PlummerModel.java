package org.viadsm.examples.barnes;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.IntArray;

/**
 * The master's initialisation ({@code code.c}: {@code testdata}, {@code pickshell}, {@code setbound}): two Plummer
 * spheres, the second a copy of the first shifted by 4 along each axis, in units where M = -4E = G = 1 (Aarseth,
 * Henon &amp; Wielen 1974), moved to the centre-of-mass frame; then the root cell's bounding box.
 */
final class PlummerModel
{
    /** Mass cut-off: radii are drawn from the inner MFRAC of the mass. */
    private static final double MFRAC = 0.999;
    private static final double PI = 3.14159265358979323846;
    private static final int NDIM = 3;

    private final DoubleArray bodies;
    private final IntArray bodyInts;
    private final int nbody;
    private final SplashRandom random;
    private final double[] vec = new double[NDIM];

    PlummerModel(final BarnesShared shared, final long seed)
    {
        this.bodies = shared.bodies;
        this.bodyInts = shared.bodyInts;
        this.nbody = shared.nbody;
        this.random = new SplashRandom(seed);
    }

    /**
     * {@code testdata()}: fills every body's mass, cost, position and velocity.
     */
    void testdata()
    {
        final double rsc = 9 * PI / 16;
        final double vsc = Math.sqrt(1.0 / rsc);
        final double[] cmr = new double[NDIM];
        final double[] cmv = new double[NDIM];

        int halfnbody = nbody / 2;
        if (nbody % 2 != 0)
        {
            halfnbody++;
        }
        for (int p = 0; p < halfnbody; p++)
        {
            final int base = p * BodyLayout.REAL_STRIDE;
            bodies.set(base + BodyLayout.MASS_OFFSET, 1.0 / nbody);
            bodyInts.set(p * BodyLayout.INT_STRIDE + BodyLayout.COST_OFFSET, 1);

            double r = 1 / Math.sqrt(Math.pow(random.xrand(0.0, MFRAC), -2.0 / 3.0) - 1);
            while (r > 9.0)
            {
                r = 1 / Math.sqrt(Math.pow(random.xrand(0.0, MFRAC), -2.0 / 3.0) - 1);
            }
            pickshell(rsc * r);
            store(base + BodyLayout.POS_OFFSET, cmr);
            double x;
            double y;
            do
            {
                x = random.xrand(0.0, 1.0);
                y = random.xrand(0.0, 0.1);
            }
            while (y > x * x * Math.pow(1 - x * x, 3.5));
            final double v = Math.sqrt(2.0) * x / Math.pow(1 + r * r, 0.25);
            pickshell(vsc * v);
            store(base + BodyLayout.VEL_OFFSET, cmv);
        }

        final float offset = 4.0f;
        for (int p = halfnbody; p < nbody; p++)
        {
            final int base = p * BodyLayout.REAL_STRIDE;
            bodies.set(base + BodyLayout.MASS_OFFSET, 1.0 / nbody);
            bodyInts.set(p * BodyLayout.INT_STRIDE + BodyLayout.COST_OFFSET, 1);
            final int cp = (p - halfnbody) * BodyLayout.REAL_STRIDE;
            for (int i = 0; i < NDIM; i++)
            {
                bodies.set(base + BodyLayout.POS_OFFSET + i, bodies.get(cp + BodyLayout.POS_OFFSET + i) + offset);
                bodies.set(base + BodyLayout.VEL_OFFSET + i, bodies.get(cp + BodyLayout.VEL_OFFSET + i));
            }
            for (int i = 0; i < NDIM; i++)
            {
                cmr[i] = cmr[i] + bodies.get(base + BodyLayout.POS_OFFSET + i);
            }
            for (int i = 0; i < NDIM; i++)
            {
                cmv[i] = cmv[i] + bodies.get(base + BodyLayout.VEL_OFFSET + i);
            }
        }

        for (int i = 0; i < NDIM; i++)
        {
            cmr[i] = cmr[i] / (double)nbody;
            cmv[i] = cmv[i] / (double)nbody;
        }
        for (int p = 0; p < nbody; p++)
        {
            final int base = p * BodyLayout.REAL_STRIDE;
            for (int i = 0; i < NDIM; i++)
            {
                final int pos = base + BodyLayout.POS_OFFSET + i;
                bodies.set(pos, bodies.get(pos) - cmr[i]);
            }
            for (int i = 0; i < NDIM; i++)
            {
                final int vel = base + BodyLayout.VEL_OFFSET + i;
                bodies.set(vel, bodies.get(vel) - cmv[i]);
            }
        }
    }

    /**
     * {@code setbound()}: the initial root box from the bodies' extent, into the shared {@code Global}.
     */
    static void setbound(final BarnesShared shared)
    {
        final DoubleArray bodies = shared.bodies;
        final DoubleArray global = shared.global;
        final double[] min = {1E99, 1E99, 1E99};
        final double[] max = {-1E99, -1E99, -1E99};
        double side = 0;
        for (int p = 0; p < shared.nbody; p++)
        {
            final int base = p * BodyLayout.REAL_STRIDE + BodyLayout.POS_OFFSET;
            for (int i = 0; i < NDIM; i++)
            {
                final double x = bodies.get(base + i);
                if (x < min[i])
                {
                    min[i] = x;
                }
                if (x > max[i])
                {
                    max[i] = x;
                }
            }
        }
        for (int i = 0; i < NDIM; i++)
        {
            max[i] = max[i] - min[i];
        }
        for (int i = 0; i < NDIM; i++)
        {
            if (side < max[i])
            {
                side = max[i];
            }
        }
        for (int i = 0; i < NDIM; i++)
        {
            global.set(GlobalLayout.RMIN_OFFSET + i, min[i] + -side / 100000.0);
        }
        global.set(GlobalLayout.RSIZE_OFFSET, 1.00002 * side);
        for (int i = 0; i < NDIM; i++)
        {
            global.set(GlobalLayout.MAX_OFFSET + i, -1E99);
            global.set(GlobalLayout.MIN_OFFSET + i, 1E99);
        }
    }

    /**
     * {@code pickshell()}: a random point on the sphere of radius {@code rad}, into {@link #vec}.
     */
    private void pickshell(final double rad)
    {
        double rsq;
        do
        {
            for (int k = 0; k < NDIM; k++)
            {
                vec[k] = random.xrand(-1.0, 1.0);
            }
            rsq = vec[0] * vec[0];
            rsq += vec[1] * vec[1];
            rsq += vec[2] * vec[2];
        }
        while (rsq > 1.0);
        final double scale = rad / Math.sqrt(rsq);
        for (int k = 0; k < NDIM; k++)
        {
            vec[k] = vec[k] * scale;
        }
    }

    /**
     * Writes {@link #vec} at {@code index} and adds it to {@code sum}.
     */
    private void store(final int index, final double[] sum)
    {
        for (int k = 0; k < NDIM; k++)
        {
            bodies.set(index + k, vec[k]);
            sum[k] = sum[k] + vec[k];
        }
    }
}
