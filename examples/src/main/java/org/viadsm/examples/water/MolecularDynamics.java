package org.viadsm.examples.water;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.examples.runtime.Team;

import static org.viadsm.examples.water.GlobalLayout.INTEREND;
import static org.viadsm.examples.water.GlobalLayout.INTERSTART;
import static org.viadsm.examples.water.GlobalLayout.INTERTIME;
import static org.viadsm.examples.water.GlobalLayout.INTRAEND;
import static org.viadsm.examples.water.GlobalLayout.INTRASTART;
import static org.viadsm.examples.water.GlobalLayout.INTRATIME;
import static org.viadsm.examples.water.GlobalLayout.POTA;
import static org.viadsm.examples.water.GlobalLayout.POTR;
import static org.viadsm.examples.water.GlobalLayout.POTRF;
import static org.viadsm.examples.water.GlobalLayout.SUM;
import static org.viadsm.examples.water.GlobalLayout.TRACKEND;
import static org.viadsm.examples.water.GlobalLayout.TRACKSTART;
import static org.viadsm.examples.water.GlobalLayout.TRACKTIME;
import static org.viadsm.examples.water.GlobalLayout.VIR;
import static org.viadsm.examples.water.MoleculeLayout.ACC;
import static org.viadsm.examples.water.MoleculeLayout.FORCES;
import static org.viadsm.examples.water.WaterConstants.TEMP;

/**
 * {@code MDMAIN}, the time-step loop both WATER programs share: initial accelerations, then per step predict,
 * intramolecular forces, intermolecular forces, correct, boundaries and kinetic energy, and every NPRINT steps the
 * potential energy and the printed line; with the C programs' barriers (five per step, two more on print steps,
 * plus those inside the phases) and shared sums in the {@link GlobalLayout} block. Subclasses supply the phases
 * over their data structure.
 * <p>
 * <b>Note:</b> one instance per team member, used by that member's thread.
 */
public abstract class MolecularDynamics
{
    /**
     * This member.
     */
    protected final Team team;

    /**
     * This member's id (the C programs' ProcID).
     */
    protected final int id;

    /**
     * The shared {@link GlobalLayout} block.
     */
    protected final DoubleArray gl;

    /**
     * The run's constants.
     */
    protected final WaterSystem system;

    private final boolean separateIntraClock;
    private final EnergyCheck check = new EnergyCheck();

    /**
     * Creates the loop of one member.
     *
     * @param team               this member.
     * @param gl                 the shared {@link GlobalLayout} block.
     * @param system             the run's constants.
     * @param separateIntraClock true for WATER-NSQUARED, which restarts its intramolecular clock before CORREC;
     *                           WATER-SPATIAL measures that phase from the end of INTERF.
     */
    protected MolecularDynamics(
        final Team team, final DoubleArray gl, final WaterSystem system, final boolean separateIntraClock)
    {
        this.team = team;
        this.id = team.id();
        this.gl = gl;
        this.system = system;
        this.separateIntraClock = separateIntraClock;
    }

    /**
     * The C programs' {@code CLOCK}: {@code time(0)}, whole seconds.
     *
     * @return seconds since the epoch.
     */
    public static double clock()
    {
        return (double)(System.currentTimeMillis() / 1000L);
    }

    /**
     * The energy check member 0 fed.
     *
     * @return the check.
     */
    public EnergyCheck check()
    {
        return check;
    }

    /**
     * {@code INTRAF}: intramolecular forces into FORCES, virial into the shared VIR under its lock.
     */
    protected abstract void intraf();

    /**
     * {@code INTERF}: intermolecular forces into {@code F[dest]}, virial into the shared VIR, then (after the
     * INTERF barrier) division by the masses.
     *
     * @param dest {@link MoleculeLayout#ACC} or {@link MoleculeLayout#FORCES}.
     */
    protected abstract void interf(int dest);

    /**
     * {@code PREDIC} over this member's molecules.
     */
    protected abstract void predic();

    /**
     * {@code CORREC} over this member's molecules.
     */
    protected abstract void correc();

    /**
     * {@code BNDRY}: puts this member's molecules back in the box.
     */
    protected abstract void bndry();

    /**
     * {@code KINETI}: kinetic-energy sums into the shared SUM under their lock.
     */
    protected abstract void kineti();

    /**
     * {@code POTENG}: potential-energy sums into the shared POTA, POTR, POTRF under their lock.
     */
    protected abstract void poteng();

    /**
     * Prints one step's energies on member 0, in the program's format.
     *
     * @param step  the step.
     * @param ten   kinetic energy.
     * @param pota  intramolecular potential energy.
     * @param potr  intermolecular potential energy.
     * @param potrf reaction-field energy.
     * @param xtt   total energy.
     * @param avgt  average temperature.
     * @param xvir  virial.
     */
    protected abstract void print(
        long step, double ten, double pota, double potr, double potrf, double xtt, double avgt, double xvir);

    /**
     * Runs {@code MDMAIN}.
     *
     * @param nstep  number of steps.
     * @param nprint print interval.
     * @param nsave  save interval (potential energy is also computed on save steps).
     * @return the last total energy XTT computed (0 if none was).
     */
    public final double run(final long nstep, final long nprint, final long nsave)
    {
        final boolean master = 0 == id;
        final double fpot = system.fpot();
        final double fkin = system.fkin();
        double xtt = 0.0;
        double ttmv = 0.0;
        double tkin = 0.0;
        double tvir = 0.0;

        intraf();
        team.barrier();
        interf(ACC);
        team.barrier();

        for (long i = 1; i <= nstep; i++)
        {
            ttmv = ttmv + 1.00;
            final boolean timed = master && i >= 2;
            if (master)
            {
                if (i >= 2)
                {
                    gl.set(TRACKSTART, clock());
                }
                gl.set(VIR, 0.0);
                gl.set(POTA, 0.0);
                gl.set(POTR, 0.0);
                gl.set(POTRF, 0.0);
                for (int dir = 0; dir < 3; dir++)
                {
                    gl.set(SUM + dir, 0.0);
                }
            }
            if (timed)
            {
                gl.set(INTRASTART, clock());
            }
            team.barrier();
            predic();
            intraf();
            team.barrier();
            if (timed)
            {
                accumulate(INTRAEND, INTRASTART, INTRATIME);
                gl.set(INTERSTART, clock());
            }
            interf(FORCES);
            if (timed)
            {
                accumulate(INTEREND, INTERSTART, INTERTIME);
                if (separateIntraClock)
                {
                    gl.set(INTRASTART, clock());
                }
            }
            correc();
            bndry();
            kineti();
            team.barrier();
            if (timed)
            {
                accumulate(INTRAEND, separateIntraClock ? INTRASTART : INTEREND, INTRATIME);
            }
            tkin = tkin + gl.get(SUM) + gl.get(SUM + 1) + gl.get(SUM + 2);
            tvir = tvir - gl.get(VIR);

            if (0 == i % nprint || (nsave > 0 && 0 == i % nsave))
            {
                if (timed)
                {
                    gl.set(INTERSTART, clock());
                }
                poteng();
                team.barrier();
                if (timed)
                {
                    accumulate(INTEREND, INTERSTART, INTERTIME);
                }
                final double pota = gl.get(POTA) * fpot;
                final double potr = gl.get(POTR) * fpot;
                final double potrf = gl.get(POTRF) * fpot;
                final double xvir = tvir * fpot * 0.50 / ttmv;
                final double avgt = tkin * fkin * TEMP * 2.00 / (3.00 * ttmv);
                final double ten = (gl.get(SUM) + gl.get(SUM + 1) + gl.get(SUM + 2)) * fkin;
                xtt = pota + potr + potrf + ten;
                if (0 == i % nprint && master)
                {
                    print(i, ten, pota, potr, potrf, xtt, avgt, xvir);
                    check.record(i, ten, pota, potr, potrf, xtt, avgt, xvir);
                }
            }
            team.barrier();
            if (timed)
            {
                accumulate(TRACKEND, TRACKSTART, TRACKTIME);
            }
        }
        return xtt;
    }

    private void accumulate(final int end, final int start, final int total)
    {
        final double now = clock();
        gl.set(end, now);
        gl.set(total, gl.get(total) + (now - gl.get(start)));
    }
}
