package org.viadsm.examples.barnes;

import org.viadsm.examples.runtime.VerificationException;

/**
 * The port's self-check; the C program has none. At every output the master checks that
 * <ul>
 *   <li>every body was in exactly one processor's share: the count of the bodies the processors hold is nbody and
 *   the sum and square sum of their indices are those of 0 .. nbody-1 (so the tree held every body once);</li>
 *   <li>the total mass is 1 (each body weighs 1/nbody) within {@value #MASS_TOLERANCE};</li>
 *   <li>the energies and centre of mass are finite;</li>
 *   <li>with at least {@value #ENERGY_CHECK_MIN_BODIES} bodies, the total energy stays within
 *   {@value #ENERGY_DRIFT_BOUND} of its first value, relative. Leapfrog with the SPLASH parameters (dtime 0.025,
 *   eps 0.05, tol 1.0) keeps it far closer: the C program drifts by at most 1.7e-3 over 40 steps for 128 to 16384
 *   bodies (2.6e-4 at most over the 3 steps of the standard inputs), while a wrong force or update loses energy
 *   conservation at once. Smaller systems are dominated by close encounters the softened integrator does not
 *   conserve that well (two bodies lose 140% in 200 steps), so they are not checked.</li>
 * </ul>
 * {@link #verify()} throws {@link VerificationException} naming the first failure.
 */
final class BarnesCheck
{
    static final double ENERGY_DRIFT_BOUND = 0.01;
    static final int ENERGY_CHECK_MIN_BODIES = 128;
    static final double MASS_TOLERANCE = 1e-9;

    private final int nbody;
    private final long expectedSum;
    private final long expectedSquareSum;
    private boolean first = true;
    private double firstEnergy;
    private String failure;
    private int outputs;

    BarnesCheck(final int nbody)
    {
        this.nbody = nbody;
        long sum = 0;
        long squareSum = 0;
        for (long i = 0; i < nbody; i++)
        {
            sum += i;
            squareSum += i * i;
        }
        this.expectedSum = sum;
        this.expectedSquareSum = squareSum;
    }

    void onOutput(
        final long step,
        final double mtot,
        final double etot,
        final double kinetic,
        final double potential,
        final double cmpos,
        final double cmvel,
        final long bodyCount,
        final long bodySum,
        final long bodySquareSum)
    {
        outputs++;
        if (null != failure)
        {
            return;
        }
        if (bodyCount != nbody || bodySum != expectedSum || bodySquareSum != expectedSquareSum)
        {
            failure = "step " + step + ": the processors' shares do not hold every body once: " + bodyCount +
                " bodies (expected " + nbody + "), index sum " + bodySum + " (expected " + expectedSum +
                "), index square sum " + bodySquareSum + " (expected " + expectedSquareSum + ")";
        }
        else if (!(Math.abs(mtot - 1.0) <= MASS_TOLERANCE))
        {
            failure = "step " + step + ": total mass " + mtot + " is not 1";
        }
        else if (!Double.isFinite(etot) || !Double.isFinite(kinetic) || !Double.isFinite(potential) ||
            !Double.isFinite(cmpos) || !Double.isFinite(cmvel))
        {
            failure = "step " + step + ": non-finite diagnostics: T+U=" + etot + " T=" + kinetic + " U=" +
                potential + " |cm pos|=" + cmpos + " |cm vel|=" + cmvel;
        }
        else if (first)
        {
            first = false;
            firstEnergy = etot;
        }
        else if (nbody >= ENERGY_CHECK_MIN_BODIES &&
            !(Math.abs(etot - firstEnergy) <= ENERGY_DRIFT_BOUND * Math.abs(firstEnergy)))
        {
            failure = "step " + step + ": total energy " + etot + " drifted from " + firstEnergy + " by more than " +
                ENERGY_DRIFT_BOUND + " relative";
        }
    }

    /**
     * @throws VerificationException naming the first failed check.
     */
    void verify()
    {
        if (null != failure)
        {
            throw new VerificationException("BARNES self-check failed: " + failure);
        }
    }

    int outputs()
    {
        return outputs;
    }
}
