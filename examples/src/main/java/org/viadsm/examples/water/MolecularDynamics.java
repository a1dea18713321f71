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
 * potential energy and the printed line; with the C programs' barriers (four per step in the loop, one inside
 * INTERF, two more on print steps, one of them inside POTENG) and shared sums in the {@link GlobalLayout} block.
 * Subclasses supply the phases over their data structure, working on views of the shared records: each phase makes
 * its views after the barrier or lock before it (every synchronization of this member ends them) and re-wraps the
 * previous ones, so the steps allocate nothing.
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
    private final Energies energies = new Energies();

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
     * @param energies the step's energies.
     */
    protected abstract void print(Energies energies);

    /**
     * Adds a partial sum to a field of the global block under a lock, as the C programs' {@code *VIR = *VIR + LVIR}
     * and {@code SUM[dir] += S}.
     *
     * @param lock  the lock id.
     * @param field the {@link GlobalLayout} field.
     * @param value the partial sum.
     */
    protected final void addShared(final int lock, final int field, final double value)
    {
        team.lock(lock);
        try
        {
            gl.set(field, gl.get(field) + value);
        }
        finally
        {
            team.unlock(lock);
        }
    }

    /**
     * {@code POTENG}'s last statements: adds the three partial energies to POTA, POTR and POTRF under one lock.
     *
     * @param lock  the lock id of PotengSumLock.
     * @param pota  the intramolecular energy.
     * @param potr  the intermolecular energy.
     * @param potrf the reaction-field energy.
     */
    protected final void addPotentials(final int lock, final double pota, final double potr, final double potrf)
    {
        team.lock(lock);
        try
        {
            gl.set(POTA, gl.get(POTA) + pota);
            gl.set(POTR, gl.get(POTR) + potr);
            gl.set(POTRF, gl.get(POTRF) + potrf);
        }
        finally
        {
            team.unlock(lock);
        }
    }

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
                final Energies e = energies;
                e.step = i;
                e.pota = gl.get(POTA) * fpot;
                e.potr = gl.get(POTR) * fpot;
                e.potrf = gl.get(POTRF) * fpot;
                e.xvir = tvir * fpot * 0.50 / ttmv;
                e.avgt = tkin * fkin * TEMP * 2.00 / (3.00 * ttmv);
                e.ten = (gl.get(SUM) + gl.get(SUM + 1) + gl.get(SUM + 2)) * fkin;
                e.xtt = e.pota + e.potr + e.potrf + e.ten;
                xtt = e.xtt;
                if (0 == i % nprint && master)
                {
                    print(e);
                    check.record(e);
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
