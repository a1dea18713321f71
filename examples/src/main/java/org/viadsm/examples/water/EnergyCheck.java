package org.viadsm.examples.water;

import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.VerificationException;

/**
 * The self-check of the WATER ports. The C programs print energies and judge nothing; without an oracle a port can
 * still assert what the physics guarantees:
 * <ul>
 * <li>every printed quantity is finite, the kinetic energy and the temperature positive;</li>
 * <li>the total energy is conserved: the integrator is a sixth-order Gear predictor-corrector with a 0.15 fs step,
 * so the total energy (XTT, in kT per atom) stays nearly constant while kinetic and potential energy trade
 * places. The check allows XTT to move from its first printed value by at most {@link #DRIFT_FRACTION} of the first
 * printed kinetic energy (TEN, 1.5 to 3 kT per atom). The C programs keep XTT within 0.01 kT per atom over 300
 * steps of 512 molecules and 2000 steps of 64 (while TEN grows from 1.6 to 8), ten times inside the bound; a wrong
 * force, a lost update or a stale read of shared memory breaks conservation by the order of TEN.</li>
 * </ul>
 * Runs that print nothing (NPRINT &gt; NSTEP) check nothing.
 * <p>
 * <b>Note:</b> not threadsafe; member 0 records what it prints.
 */
public final class EnergyCheck
{
    /**
     * Largest allowed |XTT - first XTT|, as a fraction of the first TEN.
     */
    public static final double DRIFT_FRACTION = 0.1;

    private int records;
    private double firstTotal;
    private double firstKinetic;
    private double maxDrift;

    /**
     * Creates the check with nothing recorded.
     */
    public EnergyCheck()
    {
    }

    /**
     * Records one print step.
     *
     * @param energies what the step printed.
     * @throws VerificationException if a value is not finite, TEN or AVGT is not positive, or XTT has drifted too
     *                               far.
     */
    public void record(final Energies energies)
    {
        final long step = energies.step;
        final double[] values = {energies.ten, energies.pota, energies.potr, energies.potrf, energies.xtt,
            energies.avgt, energies.xvir};
        for (final double value : values)
        {
            if (!Double.isFinite(value))
            {
                throw new VerificationException("energies not finite at " + energies);
            }
        }
        if (energies.ten <= 0.0 || energies.avgt <= 0.0)
        {
            throw new VerificationException("kinetic energy and temperature must be positive at " + energies);
        }
        if (0 == records)
        {
            firstTotal = energies.xtt;
            firstKinetic = energies.ten;
        }
        records++;
        final double drift = Math.abs(energies.xtt - firstTotal);
        maxDrift = Math.max(maxDrift, drift);
        if (drift > DRIFT_FRACTION * firstKinetic)
        {
            throw new VerificationException("step " + step + ": total energy drifted by " + CFormat.fixed(drift, 5) +
                " kT per atom (from " + CFormat.fixed(firstTotal, 5) + " to " + CFormat.fixed(energies.xtt, 5) +
                "), more than " + DRIFT_FRACTION + " of the kinetic energy " + CFormat.fixed(firstKinetic, 5));
        }
    }

    /**
     * Number of print steps recorded.
     *
     * @return the count.
     */
    public int records()
    {
        return records;
    }

    /**
     * Largest |XTT - first XTT| seen.
     *
     * @return the drift, in kT per atom.
     */
    public double maxDrift()
    {
        return maxDrift;
    }
}
