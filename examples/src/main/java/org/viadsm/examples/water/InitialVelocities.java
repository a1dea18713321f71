package org.viadsm.examples.water;

import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;

import static org.viadsm.examples.water.MoleculeLayout.ACC;
import static org.viadsm.examples.water.MoleculeLayout.H1;
import static org.viadsm.examples.water.MoleculeLayout.H2;
import static org.viadsm.examples.water.MoleculeLayout.MAXODR;
import static org.viadsm.examples.water.MoleculeLayout.NATOM;
import static org.viadsm.examples.water.MoleculeLayout.O;
import static org.viadsm.examples.water.MoleculeLayout.VEL;
import static org.viadsm.examples.water.WaterConstants.HMAS;
import static org.viadsm.examples.water.WaterConstants.NATOMS;
import static org.viadsm.examples.water.WaterConstants.OMAS;

/**
 * {@code INITIA}'s velocities: {@link #load} takes each molecule's nine numbers in file order and sums them,
 * {@link #average()} turns the sums into the mean momentum per atom, {@link #accumulate} sums the squared
 * deviations, {@link #scale} derives the factors that give kT/2 per degree of freedom, and {@link #normalize} removes
 * the bulk momentum and divides by the masses. The callers visit molecules in their program's order.
 * <p>
 * <b>Note:</b> not threadsafe; used by member 0 while it initializes.
 */
public final class InitialVelocities
{
    private static final double[] XMAS = {HMAS, OMAS, HMAS};

    private final double[] values;
    private final int nmol;
    private int next = 1;
    private double sumx;
    private double sumy;
    private double sumz;
    private double sux;
    private double suy;
    private double suz;

    /**
     * Starts from the numbers of {@code random.in}, or generated ones.
     *
     * @param values {@link Velocities#count(int)} numbers; the first is skipped, as the C programs skip it.
     * @param nmol   number of molecules.
     */
    public InitialVelocities(final double[] values, final int nmol)
    {
        if (values.length < Velocities.count(nmol))
        {
            throw new IllegalArgumentException("need " + Velocities.count(nmol) + " velocity numbers for " + nmol +
                " molecules: length=" + values.length);
        }
        this.values = values;
        this.nmol = nmol;
    }

    /**
     * Sets the next molecule's velocities from the next nine numbers (per atom x, y, z), adds them to the sums and
     * clears its acceleration and higher derivatives.
     *
     * @param var  an update view of the molecule's record.
     * @param base offset of the molecule's record.
     */
    public void load(final DoubleView var, final int base)
    {
        for (int atom = 0; atom < NATOM; atom++)
        {
            final double vx = values[next++];
            final double vy = values[next++];
            final double vz = values[next++];
            var.set(base + MoleculeLayout.f(VEL, 0, atom), vx);
            var.set(base + MoleculeLayout.f(VEL, 1, atom), vy);
            var.set(base + MoleculeLayout.f(VEL, 2, atom), vz);
            sumx = sumx + vx;
            sumy = sumy + vy;
            sumz = sumz + vz;
            for (int deriv = ACC; deriv < MAXODR; deriv++)
            {
                var.set(base + MoleculeLayout.f(deriv, 0, atom), 0.0);
                var.set(base + MoleculeLayout.f(deriv, 1, atom), 0.0);
                var.set(base + MoleculeLayout.f(deriv, 2, atom), 0.0);
            }
        }
    }

    /**
     * Divides the sums by the number of atoms.
     */
    public void average()
    {
        final long atoms = (long)NATOMS * nmol;
        sumx = sumx / atoms;
        sumy = sumy / atoms;
        sumz = sumz / atoms;
    }

    /**
     * Adds one molecule's mass-weighted squared deviations from the mean.
     *
     * @param var  a view of the molecule's velocities.
     * @param base offset of the molecule's record.
     */
    public void accumulate(final DoubleReadView var, final int base)
    {
        sux = deviation(var, base, 0, sumx, sux);
        suy = deviation(var, base, 1, sumy, suy);
        suz = deviation(var, base, 2, sumz, suz);
    }

    private static double deviation(
        final DoubleReadView var, final int base, final int dir, final double mean, final double sum)
    {
        return sum + (Math.pow(var.get(base + MoleculeLayout.f(VEL, dir, H1)) - mean, 2.0) +
            Math.pow(var.get(base + MoleculeLayout.f(VEL, dir, H2)) - mean, 2.0)) / HMAS +
            Math.pow(var.get(base + MoleculeLayout.f(VEL, dir, O)) - mean, 2.0) / OMAS;
    }

    /**
     * Turns the squared deviations into scale factors.
     *
     * @param system the run's constants.
     */
    public void scale(final WaterSystem system)
    {
        final double fac = system.velocityFactor();
        sux = Math.sqrt(fac / sux);
        suy = Math.sqrt(fac / suy);
        suz = Math.sqrt(fac / suz);
    }

    /**
     * Removes the mean and scales one molecule's velocities.
     *
     * @param var  an update view of the molecule's velocities.
     * @param base offset of the molecule's record.
     */
    public void normalize(final DoubleView var, final int base)
    {
        for (int atom = 0; atom < NATOM; atom++)
        {
            normalize(var, base + MoleculeLayout.f(VEL, 0, atom), sumx, sux, XMAS[atom]);
            normalize(var, base + MoleculeLayout.f(VEL, 1, atom), sumy, suy, XMAS[atom]);
            normalize(var, base + MoleculeLayout.f(VEL, 2, atom), sumz, suz, XMAS[atom]);
        }
    }

    private static void normalize(
        final DoubleView var, final int at, final double mean, final double factor, final double mass)
    {
        var.set(at, (var.get(at) - mean) * factor / mass);
    }
}
