package org.viadsm.examples.barnes;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.LongArray;
import org.viadsm.examples.runtime.Team;

/**
 * One processor of the simulation ({@code code.c}: {@code SlaveStart}, {@code stepsystem},
 * {@code ComputeForces}, {@code find_my_initial_bodies}, {@code Housekeep}): its fields are the C's
 * {@code Local[ProcessId]}, plain Java, since no other processor reads them once the run has started.
 * <p>
 * A step is: the master resets the root, {@code Barstart}; every processor inserts its bodies ({@code Bartree}) and
 * computes its cells' centres of mass ({@code Barcom}); cost zones; forces on its bodies; the port's
 * {@link Diagnostics output} ({@code Baraccel}); leapfrog update of its bodies and of the bounding box under
 * {@code CountLock}; {@code Barpos}; the master sizes the next root box.
 * <p>
 * The C stores a body's new cost ({@code Cost(p)}, its interaction count) during the force walk, while other
 * processors may still be summing body costs to cut their cost zones: the barrier that would separate the two is
 * commented out in SPLASH-2 and Splash-3, so with several processors a body can land in two zones or in none (the C
 * program at 512 bodies on two processors prints wrong energies in about half of its runs). The port keeps the new
 * costs per processor and stores them after {@code Baraccel}, which every processor reaches only after its
 * partition: the result of the C program with that barrier restored, with no extra barrier.
 * <p>
 * <b>Note:</b> used by one member's thread.
 */
final class BarnesMember
{
    private static final int NDIM = 3;

    private final Team team;
    private final int id;
    private final int nproc;
    private final BarnesParameters params;
    private final boolean optionalLocks;
    private final TreeBuilder tree;
    private final ForceWalker walker;
    private final CostZones zones;
    private final Diagnostics diagnostics;
    private final DoubleArray bodies;
    private final IntArray bodyInts;
    private final IntArray leafInts;
    private final IntArray cellInts;
    private final DoubleArray global;
    private final LongArray counts;
    private final IntArray mybodytab;
    private final int bodyTabBase;
    private final CellLocks locks;
    private final double dthf;

    long nstep;
    double tnow;
    double tout;
    int mynbody;
    private long myn2bcalc;
    private long mynbccalc;
    private long myselfint;
    private final double[] min = new double[NDIM];
    private final double[] max = new double[NDIM];
    /** The step's new cost of each body of {@code mybodytab}, stored into the bodies by {@link #advance()}. */
    private final int[] newCost;
    /**
     * The step's potential, acceleration and velocity of each body of {@code mybodytab} ({@code NDIM} per body for
     * the vectors), from the force computation to the update: see {@link #computeForces(int)}.
     */
    private final double[] phi;
    private final double[] acc;
    private final double[] vel;

    /** The master's phase times (ns) from the third step on, as the C's {@code Global->...time}. */
    long tracktimeNs;
    long partitiontimeNs;
    long treebuildtimeNs;
    long forcecalctimeNs;

    BarnesMember(
        final Team team,
        final BarnesParameters params,
        final BarnesShared shared,
        final boolean optionalLocks,
        final BarnesCheck check)
    {
        this.team = team;
        this.id = team.id();
        this.nproc = team.size();
        this.params = params;
        this.optionalLocks = optionalLocks;
        this.tree = new TreeBuilder(team, shared);
        this.walker = new ForceWalker(team, shared, params, optionalLocks);
        this.zones = new CostZones(id, shared);
        this.diagnostics = new Diagnostics(team, shared, check);
        this.bodies = shared.bodies;
        this.bodyInts = shared.bodyInts;
        this.leafInts = shared.leafInts;
        this.cellInts = shared.cellInts;
        this.global = shared.global;
        this.counts = shared.counts;
        this.mybodytab = shared.mybodytab;
        this.bodyTabBase = id * shared.maxmybody;
        this.locks = shared.locks;
        this.dthf = 0.5 * params.dtime;
        this.newCost = new int[shared.maxmybody];
        this.phi = new double[shared.nbody];
        this.acc = new double[NDIM * shared.nbody];
        this.vel = new double[NDIM * shared.nbody];
    }

    /**
     * {@code SlaveStart()}: takes the initial block of bodies, then steps until {@code tstop}.
     */
    void run(final int nbody)
    {
        tnow = 0.0;
        tout = tnow + params.dtout;
        nstep = 0;
        findMyInitialBodies(nbody);
        while (tnow < params.tstop + 0.1 * params.dtime)
        {
            stepsystem();
        }
    }

    private void findMyInitialBodies(final int nbody)
    {
        mynbody = nbody / nproc;
        final int extra = nbody % nproc;
        final int offset;
        if (id < extra)
        {
            mynbody++;
            offset = mynbody * id;
        }
        else
        {
            offset = (mynbody + 1) * extra + (id - extra) * mynbody;
        }
        for (int i = 0; i < mynbody; i++)
        {
            mybodytab.set(bodyTabBase + i, NodeRef.of(NodeRef.BODY, offset + i));
        }
        team.barrier();
    }

    private void stepsystem()
    {
        final boolean timed = 0 == id && nstep >= 2;
        final long trackstart = timed ? System.nanoTime() : 0;
        if (0 == id)
        {
            tree.initRoot();
        }
        else
        {
            tree.resetPools();
        }
        team.barrier();

        final long treebuildstart = timed ? System.nanoTime() : 0;
        tree.maketree(mynbody);
        if (timed)
        {
            treebuildtimeNs += System.nanoTime() - treebuildstart;
        }

        housekeep();
        final int root = (int)counts.get(GlobalLayout.G_ROOT_OFFSET);
        final double cavg = (double)cellInts.get(NodeRef.index(root) * CellLayout.INT_STRIDE +
            NodeLayout.COST_OFFSET) / (double)nproc;
        final long workMin = (long)(cavg * id);
        final long workMax = (long)(cavg * (id + 1) + (id == (nproc - 1) ? 1 : 0));

        final long partitionstart = timed ? System.nanoTime() : 0;
        mynbody = zones.partition(root, workMin, workMax);
        if (timed)
        {
            partitiontimeNs += System.nanoTime() - partitionstart;
        }

        final long forcecalcstart = timed ? System.nanoTime() : 0;
        computeForces(root);
        if (timed)
        {
            forcecalctimeNs += System.nanoTime() - forcecalcstart;
        }

        if ((tout - 0.01 * params.dtime) <= tnow)
        {
            tout += params.dtout;
        }
        diagnostics.output(this, myn2bcalc, mynbccalc, myselfint);

        advance();
        team.lock(GlobalLayout.COUNT_LOCK);
        for (int i = 0; i < NDIM; i++)
        {
            if (global.get(GlobalLayout.MIN_OFFSET + i) > min[i])
            {
                global.set(GlobalLayout.MIN_OFFSET + i, min[i]);
            }
            if (global.get(GlobalLayout.MAX_OFFSET + i) < max[i])
            {
                global.set(GlobalLayout.MAX_OFFSET + i, max[i]);
            }
        }
        team.unlock(GlobalLayout.COUNT_LOCK);
        team.barrier();

        if (timed)
        {
            tracktimeNs += System.nanoTime() - trackstart;
        }
        if (0 == id)
        {
            resizeRoot();
        }
        nstep++;
        tnow = tnow + params.dtime;
    }

    private void housekeep()
    {
        myn2bcalc = 0;
        mynbccalc = 0;
        myselfint = 0;
        for (int i = 0; i < NDIM; i++)
        {
            min[i] = 1E99;
            max[i] = -1E99;
        }
    }

    /**
     * {@code ComputeForces()}: forces on this processor's bodies, with the second-order velocity correction from
     * the change of acceleration after the first step.
     * <p>
     * The bodies' new potentials, accelerations and velocities are kept here and stored into the shared bodies after
     * the last body's walk, where the C stores each as soon as it is computed. No other processor reads them before
     * {@code Baraccel}, and none reads them at all in this phase, so the shared bodies are the C's at that barrier.
     * On a DSM the difference is the cost: with the optional locks, every body-body interaction of the walk is a
     * release, and a body's stores between two of them made its page dirty again, a write fault, a twin and a diff
     * per body; stored together they dirty each page once.
     */
    private void computeForces(final int root)
    {
        final double rsize = global.get(GlobalLayout.RSIZE_OFFSET);
        walker.begin();
        for (int t = 0; t < mynbody; t++)
        {
            forceOn(t, root, rsize);
        }
        for (int t = 0; t < mynbody; t++)
        {
            storeForce(t);
        }
    }

    /**
     * The walk of this processor's {@code t}-th body, its results kept in {@link #phi}, {@link #acc} and
     * {@link #vel}. This and the other per-body methods keep the loops over a processor's bodies, run once per
     * step, out of C2's way (see {@link CentreOfMass#hackcofm(int, int)}).
     */
    private void forceOn(final int t, final int root, final double rsize)
    {
        final int p = NodeRef.index(mybodytab.get(bodyTabBase + t));
        final int base = p * BodyLayout.REAL_STRIDE;
        final int v = NDIM * t;
        final double acc1x = bodies.get(base + BodyLayout.ACC_OFFSET);
        final double acc1y = bodies.get(base + BodyLayout.ACC_OFFSET + 1);
        final double acc1z = bodies.get(base + BodyLayout.ACC_OFFSET + 2);
        vel[v] = bodies.get(base + BodyLayout.VEL_OFFSET);
        vel[v + 1] = bodies.get(base + BodyLayout.VEL_OFFSET + 1);
        vel[v + 2] = bodies.get(base + BodyLayout.VEL_OFFSET + 2);
        newCost[t] = walker.hackgrav(p, root, rsize);
        phi[t] = walker.phi0;
        acc[v] = walker.acc0x;
        acc[v + 1] = walker.acc0y;
        acc[v + 2] = walker.acc0z;
        myn2bcalc += walker.myn2bterm;
        mynbccalc += walker.mynbcterm;
        if (!walker.skipself)
        {
            myselfint++;
        }
        if (nstep > 0)
        {
            vel[v] = vel[v] + (acc[v] - acc1x) * dthf;
            vel[v + 1] = vel[v + 1] + (acc[v + 1] - acc1y) * dthf;
            vel[v + 2] = vel[v + 2] + (acc[v + 2] - acc1z) * dthf;
        }
    }

    private void storeForce(final int t)
    {
        final int base = NodeRef.index(mybodytab.get(bodyTabBase + t)) * BodyLayout.REAL_STRIDE;
        final int v = NDIM * t;
        bodies.set(base + BodyLayout.PHI_OFFSET, phi[t]);
        for (int i = 0; i < NDIM; i++)
        {
            bodies.set(base + BodyLayout.ACC_OFFSET + i, acc[v + i]);
            bodies.set(base + BodyLayout.VEL_OFFSET + i, vel[v + i]);
        }
    }

    /**
     * Stores each body's new cost, then leapfrog: half a step of velocity, a full step of position (under the
     * body's leaf lock, an optional lock), another half step of velocity; then this processor's bounding box.
     * <p>
     * The costs and the new velocities are stored first, for all bodies, and the positions then, one critical
     * section each, where the C updates each body in turn: nobody reads them before {@code Barpos}, and stored
     * between two releases they would make a page dirty again per body (see {@link #computeForces(int)}). The
     * accelerations and the velocities after the force computation are this processor's own, kept since.
     */
    private void advance()
    {
        for (int t = 0; t < mynbody; t++)
        {
            advanceVelocity(t);
        }
        final double dtime = params.dtime;
        for (int t = 0; t < mynbody; t++)
        {
            advancePosition(t, dtime);
        }
    }

    private void advanceVelocity(final int t)
    {
        final int p = NodeRef.index(mybodytab.get(bodyTabBase + t));
        bodyInts.set(p * BodyLayout.INT_STRIDE + BodyLayout.COST_OFFSET, newCost[t]);
        final int base = p * BodyLayout.REAL_STRIDE;
        final int v = NDIM * t;
        for (int i = 0; i < NDIM; i++)
        {
            final double dvel = acc[v + i] * dthf;
            final double vel1 = vel[v + i] + dvel;
            vel[v + i] = vel1;
            bodies.set(base + BodyLayout.VEL_OFFSET + i, vel1 + dvel);
        }
    }

    private void advancePosition(final int t, final double dtime)
    {
        final int p = NodeRef.index(mybodytab.get(bodyTabBase + t));
        final int base = p * BodyLayout.REAL_STRIDE;
        final int v = NDIM * t;
        final int lockId = optionalLocks ? leafLock(p) : -1;
        if (optionalLocks)
        {
            team.lock(lockId);
        }
        for (int i = 0; i < NDIM; i++)
        {
            final int pos = base + BodyLayout.POS_OFFSET + i;
            final double x = bodies.get(pos) + vel[v + i] * dtime;
            bodies.set(pos, x);
            if (x < min[i])
            {
                min[i] = x;
            }
            if (x > max[i])
            {
                max[i] = x;
            }
        }
        if (optionalLocks)
        {
            team.unlock(lockId);
        }
    }

    private int leafLock(final int p)
    {
        final int leaf = bodyInts.get(p * BodyLayout.INT_STRIDE + BodyLayout.PARENT_OFFSET);
        return locks.of(leafInts, NodeRef.index(leaf) * LeafLayout.INT_STRIDE);
    }

    /**
     * The master's new root box from the merged extent: the largest side, enlarged slightly.
     */
    private void resizeRoot()
    {
        double rsize = 0;
        for (int i = 0; i < NDIM; i++)
        {
            final double side = global.get(GlobalLayout.MAX_OFFSET + i) - global.get(GlobalLayout.MIN_OFFSET + i);
            global.set(GlobalLayout.MAX_OFFSET + i, side);
        }
        for (int i = 0; i < NDIM; i++)
        {
            if (rsize < global.get(GlobalLayout.MAX_OFFSET + i))
            {
                rsize = global.get(GlobalLayout.MAX_OFFSET + i);
            }
        }
        for (int i = 0; i < NDIM; i++)
        {
            global.set(GlobalLayout.RMIN_OFFSET + i, global.get(GlobalLayout.MIN_OFFSET + i) + -rsize / 100000.0);
        }
        global.set(GlobalLayout.RSIZE_OFFSET, 1.00002 * rsize);
        for (int i = 0; i < NDIM; i++)
        {
            global.set(GlobalLayout.MIN_OFFSET + i, 1E99);
            global.set(GlobalLayout.MAX_OFFSET + i, -1E99);
        }
    }
}
