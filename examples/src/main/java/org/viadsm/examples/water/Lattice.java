package org.viadsm.examples.water;

import static org.viadsm.examples.water.MoleculeLayout.NATOM;
import static org.viadsm.examples.water.WaterConstants.ANGLE;
import static org.viadsm.examples.water.WaterConstants.ROH;

/**
 * {@code INITIA}'s regular cubical lattice: molecule {@code mol} goes to lattice site (i, j, k) in row-major
 * order, its oxygen at ZERO + XS * (i, j, k) accumulated step by step as the C programs do, its hydrogens at
 * +WCOS in x and +/-WSIN in y. NS, the number of sites per side, is {@code NMOL^(1/3)} minus an epsilon that
 * differs between the two programs (1e-5 in WATER-NSQUARED, 1e-14 in WATER-SPATIAL); the loops run while the index
 * is below NS.
 */
public final class Lattice
{
    /**
     * NS epsilon of WATER-NSQUARED.
     */
    public static final double NSQUARED_EPSILON = 0.00001;

    /**
     * NS epsilon of WATER-SPATIAL.
     */
    public static final double SPATIAL_EPSILON = 0.00000000000001;

    private final double ns;
    private final double xs;
    private final double zero;
    private final double wcos;
    private final double wsin;

    /**
     * Computes the lattice of a run.
     *
     * @param system    the run's constants.
     * @param epsilon   the program's NS epsilon.
     */
    public Lattice(final WaterSystem system, final double epsilon)
    {
        ns = ns(system.nmol(), epsilon);
        xs = system.boxl() / ns;
        zero = xs * 0.50;
        wcos = ROH * Math.cos(ANGLE * 0.5);
        wsin = ROH * Math.sin(ANGLE * 0.5);
    }

    private static double ns(final long nmol, final double epsilon)
    {
        return Math.pow((double)nmol, 1.0 / 3.0) - epsilon;
    }

    /**
     * How many molecules the lattice loops place: the cube of the number of integers below NS. The C programs stop
     * with "Lattice init error" unless it equals NMOL.
     *
     * @param nmol    NMOL.
     * @param epsilon the program's NS epsilon.
     * @return the number of sites.
     */
    public static long sites(final long nmol, final double epsilon)
    {
        final double limit = ns(nmol, epsilon);
        long side = 0;
        while (side < limit)
        {
            side++;
        }
        return side * side * side;
    }

    /**
     * Sites per side, fractional (NS).
     *
     * @return NS.
     */
    public double ns()
    {
        return ns;
    }

    /**
     * Spacing of the sites (XS).
     *
     * @return XS.
     */
    public double xs()
    {
        return xs;
    }

    /**
     * Coordinate of the first site (ZERO).
     *
     * @return ZERO.
     */
    public double zero()
    {
        return zero;
    }

    /**
     * x offset of the hydrogens from the oxygen (WCOS).
     *
     * @return WCOS.
     */
    public double wcos()
    {
        return wcos;
    }

    /**
     * y offset of the hydrogens from the oxygen (WSIN).
     *
     * @return WSIN.
     */
    public double wsin()
    {
        return wsin;
    }

    /**
     * Visits the sites in the C programs' order.
     *
     * @param visitor receives each site.
     * @return the number of sites visited (the C programs' final {@code mol}).
     */
    public int visit(final SiteVisitor visitor)
    {
        final double[] xt = new double[NATOM];
        final double[] yt = new double[NATOM];
        int mol = 0;
        double xt2 = zero;
        for (int i = 0; i < ns; i++)
        {
            final double xt1 = xt2 + wcos;
            xt[0] = xt1;
            xt[1] = xt2;
            xt[2] = xt1;
            double yt2 = zero;
            for (int j = 0; j < ns; j++)
            {
                yt[0] = yt2 + wsin;
                yt[1] = yt2;
                yt[2] = yt2 - wsin;
                double z = zero;
                for (int k = 0; k < ns; k++)
                {
                    visitor.site(mol, xt, yt, z);
                    mol++;
                    z = z + xs;
                }
                yt2 = yt2 + xs;
            }
            xt2 = xt2 + xs;
        }
        return mol;
    }

    /**
     * Receives lattice sites.
     */
    @FunctionalInterface
    public interface SiteVisitor
    {
        /**
         * One site.
         *
         * @param mol index of the molecule, in lattice order.
         * @param x   x of the atoms H1, O, H2.
         * @param y   y of the atoms H1, O, H2.
         * @param z   z of every atom.
         */
        void site(int mol, double[] x, double[] y, double z);
    }
}
