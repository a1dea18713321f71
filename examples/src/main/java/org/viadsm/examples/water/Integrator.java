package org.viadsm.examples.water;

import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;

import static org.viadsm.examples.water.MoleculeLayout.ACC;
import static org.viadsm.examples.water.MoleculeLayout.FORCES;
import static org.viadsm.examples.water.MoleculeLayout.H1;
import static org.viadsm.examples.water.MoleculeLayout.H2;
import static org.viadsm.examples.water.MoleculeLayout.NATOM;
import static org.viadsm.examples.water.MoleculeLayout.NDIR;
import static org.viadsm.examples.water.MoleculeLayout.O;
import static org.viadsm.examples.water.MoleculeLayout.VEL;
import static org.viadsm.examples.water.WaterConstants.HMAS;
import static org.viadsm.examples.water.WaterConstants.OMAS;

/**
 * Gear's predictor-corrector and the per-molecule sums of the WATER programs, one molecule at a time:
 * {@code PREDIC}, {@code CORREC}, {@code KINETI}'s kinetic energy and {@code INTERF}'s final division by the
 * masses. The C programs loop over molecules in different orders (WATER-NSQUARED predicts one derivative for all
 * its molecules before the next, WATER-SPATIAL all derivatives of a molecule at once); callers keep their program's
 * order.
 * <p>
 * Every method works on a view of the molecule's record (its array's own indices, see {@link MoleculeLayout}), made
 * by the caller after its last synchronization: a read view where the method only reads, else an update view.
 * <p>
 * Stateless apart from the constants: safe to share.
 */
public final class Integrator
{
    private final int norder;
    private final int nord1;
    private final double[] tlc;
    private final double[] pcc;
    private final double fhm;
    private final double fom;

    /**
     * Creates the integrator of a run.
     *
     * @param system the run's constants.
     */
    public Integrator(final WaterSystem system)
    {
        norder = system.norder();
        nord1 = norder + 1;
        tlc = system.tlc();
        pcc = system.pcc();
        fhm = system.fhm();
        fom = system.fom();
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
     * {@code PREDIC} for one function of one molecule: adds the Taylor series of the higher derivatives to
     * {@code F[func]}.
     *
     * @param var  an update view of the molecule's record.
     * @param base offset of the molecule's record.
     * @param func the function (displacement, velocity, ...) to predict, 0 to NORDER - 1.
     */
    public void predict(final DoubleView var, final int base, final int func)
    {
        final double[] c = tlc;
        final int jiz = 2 + func * nord1;
        for (int dir = 0; dir < NDIR; dir++)
        {
            for (int atom = 0; atom < NATOM; atom++)
            {
                int ji = jiz;
                double s = 0.0;
                for (int l = func; l < norder; l++)
                {
                    s += c[ji] * var.get(base + MoleculeLayout.f(l + 1, dir, atom));
                    ji++;
                }
                final int at = base + MoleculeLayout.f(func, dir, atom);
                var.set(at, var.get(at) + s);
            }
        }
    }

    /**
     * {@code CORREC} for one molecule: corrects every function with the difference between the computed force and
     * the predicted acceleration.
     *
     * @param var  an update view of the molecule's record.
     * @param base offset of the molecule's record.
     */
    public void correct(final DoubleView var, final int base)
    {
        final double[] p = pcc;
        for (int dir = 0; dir < NDIR; dir++)
        {
            for (int atom = 0; atom < NATOM; atom++)
            {
                final double y = var.get(base + MoleculeLayout.f(FORCES, dir, atom)) -
                    var.get(base + MoleculeLayout.f(ACC, dir, atom));
                for (int func = 0; func < nord1; func++)
                {
                    final int at = base + MoleculeLayout.f(func, dir, atom);
                    var.set(at, var.get(at) + p[func] * y);
                }
            }
        }
    }

    /**
     * {@code KINETI}'s term of one molecule in one direction.
     *
     * @param var  a view of the molecule's velocities.
     * @param base offset of the molecule's record.
     * @param dir  the direction.
     * @return (vH1^2 + vH2^2) * HMAS + vO^2 * OMAS.
     */
    public static double kinetic(final DoubleReadView var, final int base, final int dir)
    {
        final double h1 = var.get(base + MoleculeLayout.f(VEL, dir, H1));
        final double h2 = var.get(base + MoleculeLayout.f(VEL, dir, H2));
        final double o = var.get(base + MoleculeLayout.f(VEL, dir, O));
        return (h1 * h1 + h2 * h2) * HMAS + (o * o) * OMAS;
    }

    /**
     * {@code INTERF}'s last loop body: turns the molecule's summed forces in {@code F[dest]} into displacement
     * terms (times FHM for hydrogen, FOM for oxygen).
     *
     * @param var  an update view of the molecule's {@code F[dest]}.
     * @param base offset of the molecule's record.
     * @param dest {@link MoleculeLayout#ACC} or {@link MoleculeLayout#FORCES}.
     */
    public void scaleByMass(final DoubleView var, final int base, final int dest)
    {
        for (int dir = 0; dir < NDIR; dir++)
        {
            final int at = base + MoleculeLayout.f(dest, dir, 0);
            var.set(at + H1, var.get(at + H1) * fhm);
            var.set(at + O, var.get(at + O) * fom);
            var.set(at + H2, var.get(at + H2) * fhm);
        }
    }

    /**
     * {@code BNDRY}'s move of a molecule by a box length in one direction: adds {@code by} to the H1, O and H2
     * coordinates at {@code at}.
     *
     * @param var an update view of the molecule's displacements.
     * @param at  offset of the molecule's {@code F[DISP][dir][H1]}.
     * @param by  +BOXL or -BOXL.
     */
    public static void translate(final DoubleView var, final int at, final double by)
    {
        var.set(at + H1, var.get(at + H1) + by);
        var.set(at + O, var.get(at + O) + by);
        var.set(at + H2, var.get(at + H2) + by);
    }
}
