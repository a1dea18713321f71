package org.viadsm.examples.barnes;

import java.util.concurrent.TimeUnit;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.examples.runtime.Backoff;
import org.viadsm.examples.runtime.Team;

/**
 * One processor's {@code hackcofm()} ({@code load.c}): the mass, cost and centre of mass of each leaf and cell it
 * created this step, leaves first, each list in reverse creation order so children come before parents.
 * <p>
 * {@code hackcofm} waits for each child's centre of mass with a pthread condition variable on the child's cell
 * lock. A {@link Team} has no condition variables, so the wait re-acquires the lock after a short back-off until the
 * child is done: with one processor it never waits (children come before parents in the processor's own tables), so
 * the lock count is the C's; with more, each retry adds one acquisition.
 * <p>
 * <b>Note:</b> used by one member's thread.
 */
final class CentreOfMass
{
    private static final long DONE_WAIT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(300);

    private final Team team;
    private final int id;
    private final DoubleArray bodies;
    private final IntArray bodyInts;
    private final DoubleArray cells;
    private final IntArray cellInts;
    private final DoubleArray leaves;
    private final IntArray leafInts;
    private final IntArray mycelltab;
    private final IntArray myleaftab;
    private final int cellTabBase;
    private final int leafTabBase;
    private final CellLocks locks;
    private final Backoff backoff = new Backoff(DONE_WAIT_TIMEOUT_NS);

    CentreOfMass(final Team team, final BarnesShared shared)
    {
        this.team = team;
        this.id = team.id();
        this.bodies = shared.bodies;
        this.bodyInts = shared.bodyInts;
        this.cells = shared.cells;
        this.cellInts = shared.cellInts;
        this.leaves = shared.leaves;
        this.leafInts = shared.leafInts;
        this.mycelltab = shared.mycelltab;
        this.myleaftab = shared.myleaftab;
        this.cellTabBase = id * shared.maxmycell;
        this.leafTabBase = id * shared.maxmyleaf;
        this.locks = shared.locks;
    }

    /**
     * {@code hackcofm()}: masses, centres of mass and costs of this processor's leaves, then its cells, each in
     * reverse creation order so children come before parents; a child made by another processor is waited for.
     * <p>
     * One leaf or cell per call of {@link #leafCentre(int)} and {@link #cellCentre(int)}: this method runs once per
     * step, so with the leaves' and cells' bodies inside its loops C2 compiled it on stack replacement up to three
     * times and then whole, 11 to 25 KB of code each time, in the first warm runs on 2 nodes, taking the CPU the
     * peer node of a 2-core machine waits for at the next barrier; called thousands of times per step, the two are
     * compiled whole, once each.
     */
    void hackcofm(final int mynleaf, final int myncell)
    {
        for (int t = mynleaf - 1; t >= 0; t--)
        {
            leafCentre(t);
        }
        for (int t = myncell - 1; t >= 0; t--)
        {
            cellCentre(t);
        }
    }

    /**
     * The mass, cost and centre of mass of this processor's {@code t}-th leaf, from its bodies.
     */
    private void leafCentre(final int t)
    {
        final int l = NodeRef.index(myleaftab.get(leafTabBase + t));
        final int lBase = l * LeafLayout.INT_STRIDE;
        final int lReal = l * NodeLayout.REAL_STRIDE;
        double mass = 0.0;
        int cost = 0;
        double px = 0.0;
        double py = 0.0;
        double pz = 0.0;
        final int numBodies = leafInts.get(lBase + LeafLayout.NUM_BODIES_OFFSET);
        for (int i = 0; i < numBodies; i++)
        {
            final int p = NodeRef.index(leafInts.get(lBase + LeafLayout.BODYP_OFFSET + i));
            final int pReal = p * BodyLayout.REAL_STRIDE;
            final double m = bodies.get(pReal + BodyLayout.MASS_OFFSET);
            mass += m;
            cost = Math.addExact(cost, bodyInts.get(p * BodyLayout.INT_STRIDE + BodyLayout.COST_OFFSET));
            px = px + bodies.get(pReal + BodyLayout.POS_OFFSET) * m;
            py = py + bodies.get(pReal + BodyLayout.POS_OFFSET + 1) * m;
            pz = pz + bodies.get(pReal + BodyLayout.POS_OFFSET + 2) * m;
        }
        setCentre(leaves, leafInts, lReal, lBase, mass, cost, px, py, pz);
    }

    /**
     * The mass, cost and centre of mass of this processor's {@code t}-th cell, from its children once each is done.
     */
    private void cellCentre(final int t)
    {
        final int q = NodeRef.index(mycelltab.get(cellTabBase + t));
        final int qBase = q * CellLayout.INT_STRIDE;
        final int qReal = q * NodeLayout.REAL_STRIDE;
        double mass = 0.0;
        int cost = 0;
        double px = 0.0;
        double py = 0.0;
        double pz = 0.0;
        for (int i = 0; i < CellLayout.NSUB; i++)
        {
            final int r = cellInts.get(qBase + CellLayout.SUBP_OFFSET + i);
            if (NodeRef.NULL != r)
            {
                final boolean leaf = NodeRef.LEAF == NodeRef.type(r);
                final DoubleArray reals = leaf ? leaves : cells;
                final IntArray ints = leaf ? leafInts : cellInts;
                final int rBase = NodeRef.index(r) * (leaf ? LeafLayout.INT_STRIDE : CellLayout.INT_STRIDE);
                final int rReal = NodeRef.index(r) * NodeLayout.REAL_STRIDE;
                final int lockId = locks.of(ints, rBase);
                waitDone(ints, rBase, lockId, r);
                final double m = reals.get(rReal + NodeLayout.MASS_OFFSET);
                mass += m;
                cost = Math.addExact(cost, ints.get(rBase + NodeLayout.COST_OFFSET));
                px = px + reals.get(rReal + NodeLayout.POS_OFFSET) * m;
                py = py + reals.get(rReal + NodeLayout.POS_OFFSET + 1) * m;
                pz = pz + reals.get(rReal + NodeLayout.POS_OFFSET + 2) * m;
                team.lock(lockId);
                ints.set(rBase + NodeLayout.DONE_OFFSET, 0);
                team.unlock(lockId);
            }
        }
        setCentre(cells, cellInts, qReal, qBase, mass, cost, px, py, pz);
    }

    /**
     * Stores a node's mass, cost and centre of mass (the weighted sum divided by the mass), then marks it done
     * under its lock.
     */
    private void setCentre(
        final DoubleArray reals,
        final IntArray ints,
        final int realBase,
        final int intBase,
        final double mass,
        final int cost,
        final double px,
        final double py,
        final double pz)
    {
        reals.set(realBase + NodeLayout.MASS_OFFSET, mass);
        ints.set(intBase + NodeLayout.COST_OFFSET, cost);
        reals.set(realBase + NodeLayout.POS_OFFSET, px / mass);
        reals.set(realBase + NodeLayout.POS_OFFSET + 1, py / mass);
        reals.set(realBase + NodeLayout.POS_OFFSET + 2, pz / mass);
        final int lockId = locks.of(ints, intBase);
        team.lock(lockId);
        ints.set(intBase + NodeLayout.DONE_OFFSET, 1);
        team.unlock(lockId);
    }

    /**
     * The C's {@code while (!Done(r)) CONDVARWAIT(...)} under the child's lock, as lock, test, unlock and back off.
     */
    private void waitDone(final IntArray ints, final int base, final int lockId, final int node)
    {
        team.lock(lockId);
        if (0 == ints.get(base + NodeLayout.DONE_OFFSET))
        {
            backoff.reset();
            do
            {
                team.unlock(lockId);
                if (!backoff.idle())
                {
                    throw new IllegalStateException("member " + id + " waited more than " +
                        TimeUnit.NANOSECONDS.toSeconds(backoff.timeoutNs()) + " s for the centre of mass of " +
                        (NodeRef.LEAF == NodeRef.type(node) ? "leaf " : "cell ") + NodeRef.index(node));
                }
                team.lock(lockId);
            }
            while (0 == ints.get(base + NodeLayout.DONE_OFFSET));
        }
        team.unlock(lockId);
    }
}
