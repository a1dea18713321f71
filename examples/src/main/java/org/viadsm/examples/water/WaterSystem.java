package org.viadsm.examples.water;

import static org.viadsm.examples.water.WaterConstants.BOLTZ;
import static org.viadsm.examples.water.WaterConstants.HMAS;
import static org.viadsm.examples.water.WaterConstants.NATOMS;
import static org.viadsm.examples.water.WaterConstants.OMAS;
import static org.viadsm.examples.water.WaterConstants.QQ;
import static org.viadsm.examples.water.WaterConstants.RHO;
import static org.viadsm.examples.water.WaterConstants.TEMP;
import static org.viadsm.examples.water.WaterConstants.UNITL;
import static org.viadsm.examples.water.WaterConstants.UNITM;
import static org.viadsm.examples.water.WaterConstants.UNITT;
import static org.viadsm.examples.water.WaterConstants.WTMOL;

/**
 * The run's derived constants, as the C programs' {@code CNSTNT} (Taylor and predictor-corrector coefficients) and
 * {@code SYSCNS} (scaled time step, box, cutoff, energy scales) compute them from the parameters. Every team member
 * computes its own copy, as every C process sees the master's globals.
 * <p>
 * Instances are immutable (the coefficient arrays are handed out for reading only).
 */
public final class WaterSystem
{
    private static final int TLC_LENGTH = 100;
    private static final int PCC_LENGTH = 11;
    private static final double MAX_CUTOFF = 11.0;

    private final int nmol;
    private final int norder;
    private final double tstep;
    private final double fpot;
    private final double fkin;
    private final double boxl;
    private final double boxh;
    private final double cutoff;
    private final double cut2;
    private final double ref1;
    private final double ref2;
    private final double ref4;
    private final double fhm;
    private final double fom;
    private final double[] tlc = new double[TLC_LENGTH];
    private final double[] pcc = new double[PCC_LENGTH];

    /**
     * Computes the constants.
     *
     * @param parameters the input deck; NMOL and NORDER must have been checked ({@link #checkOrder(long)}).
     */
    public WaterSystem(final WaterParameters parameters)
    {
        nmol = (int)parameters.nmol();
        norder = (int)parameters.norder();
        taylorCoefficients(norder + 1, tlc);
        correctorCoefficients(norder, pcc);

        tstep = parameters.tstep() / UNITT;
        final long natmo = (long)NATOMS * nmol;
        fpot = UNITM * Math.pow(UNITL / UNITT, 2.0) / (BOLTZ * TEMP * natmo);
        fkin = fpot * 0.50 / (tstep * tstep);
        boxl = Math.pow(nmol * WTMOL * UNITM / RHO, 1.00 / 3.00) / UNITL;
        boxh = boxl * 0.50;
        double radius = parameters.cutoff();
        if (0.0 == radius)
        {
            radius = boxh < radius ? radius : boxh;
        }
        if (radius > MAX_CUTOFF)
        {
            radius = MAX_CUTOFF;
        }
        cutoff = radius;
        ref1 = -QQ / (cutoff * cutoff * cutoff);
        ref2 = 2.00 * ref1;
        ref4 = 2.00 * ref2;
        cut2 = cutoff * cutoff;
        fhm = (tstep * tstep * 0.50) / HMAS;
        fom = (tstep * tstep * 0.50) / OMAS;
    }

    /**
     * Checks NORDER: the C program rejects orders below 3 and has coefficients up to 7.
     *
     * @param norder the order.
     * @throws IllegalArgumentException if it is outside [3, 7].
     */
    public static void checkOrder(final long norder)
    {
        if (norder < 3 || norder > 7)
        {
            throw new IllegalArgumentException("NORDER must be between 3 and 7: NORDER=" + norder);
        }
    }

    private static void taylorCoefficients(final int n, final double[] c)
    {
        c[1] = 1.0;
        for (int n1 = 2; n1 <= n; n1++)
        {
            int nn = n1 - 1;
            double tn = nn;
            double tk = 1.0;
            c[n1] = 1.0;
            for (int k1 = 2; k1 <= n1; k1++)
            {
                c[(k1 - 1) * n + nn] = c[(k1 - 2) * n + nn + 1] * tn / tk;
                nn = nn - 1;
                tn = tn - 1.0;
                tk = tk + 1.0;
            }
        }
    }

    private static void correctorCoefficients(final int order, final double[] p)
    {
        p[2] = 1.0;
        switch (order)
        {
            case 3:
                p[0] = 1.0 / 6.00;
                p[1] = 5.0 / 6.00;
                p[3] = 1.0 / 3.00;
                break;
            case 4:
                p[0] = 19.00 / 120.00;
                p[1] = 3.00 / 4.00;
                p[3] = 1.0 / 2.00;
                p[4] = 1.0 / 12.00;
                break;
            case 5:
                p[0] = 3.00 / 20.00;
                p[1] = 251.00 / 360.00;
                p[3] = 11.00 / 18.00;
                p[4] = 1.0 / 6.00;
                p[5] = 1.0 / 60.00;
                break;
            case 6:
                p[0] = 863.00 / 6048.00;
                p[1] = 665.00 / 1008.00;
                p[3] = 25.00 / 36.00;
                p[4] = 35.00 / 144.00;
                p[5] = 1.0 / 24.00;
                p[6] = 1.0 / 360.00;
                break;
            case 7:
                p[0] = 275.00 / 2016.00;
                p[1] = 19087.00 / 30240.00;
                p[3] = 137.00 / 180.00;
                p[4] = 5.0 / 16.00;
                p[5] = 17.00 / 240.00;
                p[6] = 1.0 / 120.00;
                p[7] = 1.0 / 2520.00;
                break;
            default:
                throw new IllegalArgumentException("NORDER must be between 3 and 7: NORDER=" + order);
        }
    }

    /**
     * Number of molecules.
     *
     * @return NMOL.
     */
    public int nmol()
    {
        return nmol;
    }

    /**
     * Order of the predictor-corrector.
     *
     * @return NORDER.
     */
    public int norder()
    {
        return norder;
    }

    /**
     * The time step in units of UNITT (TSTEP after {@code SYSCNS}).
     *
     * @return the scaled time step.
     */
    public double tstep()
    {
        return tstep;
    }

    /**
     * Converts potential-energy sums to kT per atom.
     *
     * @return FPOT.
     */
    public double fpot()
    {
        return fpot;
    }

    /**
     * Converts kinetic-energy sums to kT per atom.
     *
     * @return FKIN.
     */
    public double fkin()
    {
        return fkin;
    }

    /**
     * Length of the cubical box, in Angstrom.
     *
     * @return BOXL.
     */
    public double boxl()
    {
        return boxl;
    }

    /**
     * Half the box length.
     *
     * @return BOXH.
     */
    public double boxh()
    {
        return boxh;
    }

    /**
     * Cutoff radius in effect, in Angstrom.
     *
     * @return CUTOFF after {@code SYSCNS}.
     */
    public double cutoff()
    {
        return cutoff;
    }

    /**
     * Square of the cutoff radius.
     *
     * @return CUT2.
     */
    public double cut2()
    {
        return cut2;
    }

    /**
     * Reaction-field constant for charge pairs.
     *
     * @return REF1.
     */
    public double ref1()
    {
        return ref1;
    }

    /**
     * Twice {@link #ref1()}.
     *
     * @return REF2.
     */
    public double ref2()
    {
        return ref2;
    }

    /**
     * Twice {@link #ref2()}.
     *
     * @return REF4.
     */
    public double ref4()
    {
        return ref4;
    }

    /**
     * Force-to-displacement factor of a hydrogen atom.
     *
     * @return FHM.
     */
    public double fhm()
    {
        return fhm;
    }

    /**
     * Force-to-displacement factor of an oxygen atom.
     *
     * @return FOM.
     */
    public double fom()
    {
        return fom;
    }

    /**
     * Taylor-series coefficients of the predictor, indexed as the C program's {@code TLC}; do not modify.
     *
     * @return TLC.
     */
    double[] tlc()
    {
        return tlc;
    }

    /**
     * Predictor-corrector constants, indexed as the C program's {@code PCC}; do not modify.
     *
     * @return PCC.
     */
    double[] pcc()
    {
        return pcc;
    }

    /**
     * The velocity scale {@code INITIA} uses: kT per atom in the program's units.
     *
     * @return FAC.
     */
    double velocityFactor()
    {
        return BOLTZ * TEMP * ((long)NATOMS * nmol) / UNITM * Math.pow(UNITT * tstep / UNITL, 2.0);
    }
}
