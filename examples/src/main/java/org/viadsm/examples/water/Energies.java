package org.viadsm.examples.water;

import java.io.PrintStream;

import org.viadsm.examples.runtime.CFormat;

/**
 * The quantities {@code MDMAIN} prints at a print step, in kT per atom, and the two programs' ways of printing
 * them.
 * <p>
 * <b>Note:</b> a reusable holder, filled and read by one member.
 */
public final class Energies
{
    long step;
    double ten;
    double pota;
    double potr;
    double potrf;
    double xtt;
    double avgt;
    double xvir;

    /**
     * Creates the sums, all zero.
     */
    public Energies()
    {
    }

    /**
     * The time step.
     *
     * @return the step.
     */
    public long step()
    {
        return step;
    }

    /**
     * The total energy XTT.
     *
     * @return XTT.
     */
    public double xtt()
    {
        return xtt;
    }

    /**
     * WATER-NSQUARED's single {@code fprintf}, whose format string continues over a line break with a backslash
     * and so keeps the next source line's indentation before POTRF.
     *
     * @param out the stream.
     */
    public void printNsquared(final PrintStream out)
    {
        out.print(CFormat.format(
            "     %5ld %14.5lf %12.5lf %12.5lf                  %12.5lf\n %16.3lf %16.5lf %16.5lf\n",
            step, ten, pota, potr, potrf, xtt, avgt, xvir));
    }

    /**
     * WATER-SPATIAL's two {@code fprintf}s and {@code fflush}.
     *
     * @param out the stream.
     */
    public void printSpatial(final PrintStream out)
    {
        out.print(CFormat.format("     %5ld %14.5lf %12.5lf %12.5lf %12.5lf \n", step, ten, pota, potr, potrf));
        out.print(CFormat.format(" %16.3lf %16.5lf %16.5lf\n", xtt, avgt, xvir));
        out.flush();
    }

    @Override
    public String toString()
    {
        return "step " + step + ": TEN=" + ten + " POTA=" + pota + " POTR=" + potr + " POTRF=" + potrf + " XTT=" + xtt +
            " AVGT=" + avgt + " XVIR=" + xvir;
    }
}
