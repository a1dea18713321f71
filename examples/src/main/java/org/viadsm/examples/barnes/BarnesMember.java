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
    private final double[] acc1 = new double[NDIM];
    /** The step's new cost of each body of {@code mybodytab}, stored into the bodies by {@link #advance()}. */
    private final int[] newCost;

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
     */
    private void computeForces(final int root)
    {
        final double rsize = global.get(GlobalLayout.RSIZE_OFFSET);
        walker.begin();
        for (int t = 0; t < mynbody; t++)
        {
            final int p = NodeRef.index(mybodytab.get(bodyTabBase + t));
            final int base = p * BodyLayout.REAL_STRIDE;
            for (int i = 0; i < NDIM; i++)
            {
                acc1[i] = bodies.get(base + BodyLayout.ACC_OFFSET + i);
            }
            newCost[t] = walker.hackgrav(p, root, rsize);
            myn2bcalc += walker.myn2bterm;
            mynbccalc += walker.mynbcterm;
            if (!walker.skipself)
            {
                myselfint++;
            }
            if (nstep > 0)
            {
                for (int i = 0; i < NDIM; i++)
                {
                    final double dacc = bodies.get(base + BodyLayout.ACC_OFFSET + i) - acc1[i];
                    final double dvel = dacc * dthf;
                    final int vel = base + BodyLayout.VEL_OFFSET + i;
                    bodies.set(vel, bodies.get(vel) + dvel);
                }
            }
        }
    }

    /**
     * Stores each body's new cost, then leapfrog: half a step of velocity, a full step of position (under the
     * body's leaf lock, an optional lock), another half step of velocity; then this processor's bounding box.
     */
    private void advance()
    {
        final double dtime = params.dtime;
        for (int t = 0; t < mynbody; t++)
        {
            final int p = NodeRef.index(mybodytab.get(bodyTabBase + t));
            bodyInts.set(p * BodyLayout.INT_STRIDE + BodyLayout.COST_OFFSET, newCost[t]);
            final int base = p * BodyLayout.REAL_STRIDE;
            final double dvelx = bodies.get(base + BodyLayout.ACC_OFFSET) * dthf;
            final double dvely = bodies.get(base + BodyLayout.ACC_OFFSET + 1) * dthf;
            final double dvelz = bodies.get(base + BodyLayout.ACC_OFFSET + 2) * dthf;
            final double vel1x = bodies.get(base + BodyLayout.VEL_OFFSET) + dvelx;
            final double vel1y = bodies.get(base + BodyLayout.VEL_OFFSET + 1) + dvely;
            final double vel1z = bodies.get(base + BodyLayout.VEL_OFFSET + 2) + dvelz;
            final int lockId = optionalLocks ? leafLock(p) : -1;
            if (optionalLocks)
            {
                team.lock(lockId);
            }
            bodies.set(base + BodyLayout.POS_OFFSET, bodies.get(base + BodyLayout.POS_OFFSET) + vel1x * dtime);
            bodies.set(base + BodyLayout.POS_OFFSET + 1, bodies.get(base + BodyLayout.POS_OFFSET + 1) + vel1y * dtime);
            bodies.set(base + BodyLayout.POS_OFFSET + 2, bodies.get(base + BodyLayout.POS_OFFSET + 2) + vel1z * dtime);
            if (optionalLocks)
            {
                team.unlock(lockId);
            }
            bodies.set(base + BodyLayout.VEL_OFFSET, vel1x + dvelx);
            bodies.set(base + BodyLayout.VEL_OFFSET + 1, vel1y + dvely);
            bodies.set(base + BodyLayout.VEL_OFFSET + 2, vel1z + dvelz);
            for (int i = 0; i < NDIM; i++)
            {
                final double x = bodies.get(base + BodyLayout.POS_OFFSET + i);
                if (x < min[i])
                {
                    min[i] = x;
                }
                if (x > max[i])
                {
                    max[i] = x;
                }
            }
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
