package org.viadsm.examples.water;

/**
 * The constants the C programs set in {@code CNSTNT} and {@code main} and never change: water's geometry and masses
 * (Angstrom, radian, a.m.u.), the units, the intramolecular force constants (scaled by UNITM / UNITT^2) and the
 * water-water potential. Derived values are computed in the C order so they round the same way.
 */
final class WaterConstants
{
    static final int NATOMS = 3;
    static final double TEMP = 298.0;
    static final double RHO = 0.9980;

    static final double ROH = 0.9572;
    static final double ROHI = 1.0 / ROH;
    static final double ROHI2 = ROHI * ROHI;
    static final double ANGLE = 1.824218;
    static final double OMAS = 15.99945;
    static final double HMAS = 1.007825;
    static final double WTMOL = OMAS + 2.0 * HMAS;

    static final double UNITT = 1.0e-15;
    static final double UNITL = 1.0e-8;
    static final double UNITM = 1.6605655e-24;
    static final double BOLTZ = 1.380662e-16;
    static final double AVGNO = 6.022045e23;

    static final double FC11 = 0.512596;
    static final double FC33 = 0.048098;
    static final double FC12 = -0.005823;
    static final double FC13 = 0.016452;
    static final double FC111 = -0.57191;
    static final double FC333 = -0.007636;
    static final double FC112 = -0.001867;
    static final double FC113 = -0.002047;
    static final double FC123 = -0.03083;
    static final double FC133 = -0.0094245;
    static final double FC1111 = 0.8431;
    static final double FC3333 = -0.00193;
    static final double FC1112 = -0.0030;
    static final double FC1122 = 0.0036;
    static final double FC1113 = -0.012;
    static final double FC1123 = 0.0060;
    static final double FC1133 = -0.0048;
    static final double FC1233 = 0.0211;
    static final double FC1333 = 0.006263;

    static final double QQ = 0.07152158;
    static final double A1 = 455.313100;
    static final double B1 = 5.15271070;
    static final double A2 = 0.27879839;
    static final double B2 = 2.76084370;
    static final double A3 = 0.60895706;
    static final double B3 = 2.96189550;
    static final double A4 = 0.11447336;
    static final double B4 = 2.23326410;
    static final double CM = 0.45682590;
    static final double AB1 = A1 * B1;
    static final double AB2 = A2 * B2;
    static final double AB3 = A3 * B3;
    static final double AB4 = A4 * B4;
    static final double C1 = 1.0 - CM;
    static final double C2 = 0.50 * CM;
    static final double QQ2 = 2.00 * QQ;
    static final double QQ4 = 2.00 * QQ2;

    private WaterConstants()
    {
    }
}
