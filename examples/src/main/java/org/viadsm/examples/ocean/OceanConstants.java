package org.viadsm.examples.ocean;

/**
 * The physical constants of OCEAN (the C globals initialised in {@code main.c}) and the values the C program derives
 * from them and from the options. Immutable; every member builds its own.
 */
final class OceanConstants
{
    /** Depth of the upper layer, metres. */
    static final double H1 = 1000.0;
    /** Depth of the lower layer, metres. */
    static final double H3 = 4000.0;
    /** Total depth, metres. */
    static final double H = 5000.0;
    /** Friction coefficient (the C {@code lf}). */
    static final double LF = -5.12e11;
    /** Coriolis parameter at the centre. */
    static final double F0 = 8.3e-5;
    /** Its north-south gradient. */
    static final double BETA = 2.0e-11;
    /** Reduced gravity. */
    static final double GPR = 0.02;
    /** Wind stress amplitude. */
    static final double T0 = 0.5e-4;
    /** Day after which output days are counted (the C {@code outday0}). */
    static final double OUTDAY0 = 1.0;
    /** Last day simulated (the C {@code outday3}). */
    static final double OUTDAY3 = 2.0;

    final double res;
    final double dtau;
    final boolean doStats;
    final double factjacob;
    final double factlap;
    final double eig2;
    final double ysca;
    final double pi;
    final double ressqr;
    final double hh1;
    final double hh3;

    OceanConstants(final int gridSize, final double res, final double dtau, final boolean doStats)
    {
        this.res = res;
        this.dtau = dtau;
        this.doStats = doStats;
        factjacob = -1. / (12. * res * res);
        factlap = 1. / (res * res);
        eig2 = -H * F0 * F0 / (H1 * H3 * GPR);
        final int jmm1 = gridSize - 1;
        ysca = ((double)jmm1) * res;
        pi = 4. * StrictMath.atan(1.0);
        ressqr = res * res;
        hh1 = H1 / H;
        hh3 = H3 / H;
    }
}
