package org.viadsm.examples.barnes;

import org.viadsm.dsm.array.IntArray;
import org.viadsm.examples.runtime.Team;

/**
 * One processor's force evaluation ({@code grav.c}: {@code hackgrav}, {@code walksub}, {@code subdivp},
 * {@code gravsub}): walks the tree from the root for one body, opening every node closer than its size over
 * {@code tol}, and sums the softened monopole potential and acceleration.
 * <p>
 * Splash-3 reads another body's position under the lock of the body's leaf ({@code CellLock->CL[seqnum % MAXLOCK]},
 * here mapped by {@link CellLocks}; one acquisition per body-body interaction) unless built with
 * {@code WITH_NO_OPTIONAL_LOCKS}; so does this class unless {@code optionalLocks} is false. Without those locks the
 * walk synchronizes nowhere, so it reads the tree and the bodies through read views made before it (see
 * {@link TreeReads}); with them, element by element.
 * <p>
 * <b>Note:</b> used by one member's thread; the per-body state is the C's {@code Local[ProcessId]} fields.
 */
final class ForceWalker
{
    private final Team team;
    private final boolean optionalLocks;
    private final double tolsq;
    private final double epssq;
    private final IntArray bodyInts;
    private final IntArray cellInts;
    private final IntArray leafInts;
    private final TreeReads reads;
    private final CellLocks locks;

    /** Interactions with bodies and with cells or leaves for the current body. */
    int myn2bterm;
    int mynbcterm;
    /** Whether the walk met the current body itself. */
    boolean skipself;
    /** The current body's potential and acceleration. */
    double phi0;
    double acc0x;
    double acc0y;
    double acc0z;

    private int pskip;
    private double pos0x;
    private double pos0y;
    private double pos0z;
    private double drx;
    private double dry;
    private double drz;
    private double drsq;
    private int pmem;

    ForceWalker(final Team team, final BarnesShared shared, final BarnesParameters params,
        final boolean optionalLocks)
    {
        this.team = team;
        this.optionalLocks = optionalLocks;
        this.tolsq = params.tol * params.tol;
        this.epssq = params.eps * params.eps;
        this.bodyInts = shared.bodyInts;
        this.cellInts = shared.cellInts;
        this.leafInts = shared.leafInts;
        this.locks = shared.locks;
        this.reads = optionalLocks ? TreeReads.elements(shared) : TreeReads.views(shared);
    }

    /**
     * Prepares the walks of a step's bodies: call after the last synchronization before them.
     */
    void begin()
    {
        reads.refresh();
    }

    /**
     * {@code hackgrav()}: the potential and acceleration at body {@code p} (index), left in {@link #phi0} and
     * {@code acc0*} for the caller to store (see {@link BarnesMember}'s {@code computeForces}). Its new cost
     * ({@code myn2bterm + mynbcterm}) is returned rather than stored: see {@link BarnesMember}.
     */
    int hackgrav(final int p, final int root, final double rsize)
    {
        final int pReal = p * BodyLayout.REAL_STRIDE;
        pskip = NodeRef.of(NodeRef.BODY, p);
        final TreeReads reads = this.reads;
        pos0x = reads.real(NodeRef.BODY, pReal + BodyLayout.POS_OFFSET);
        pos0y = reads.real(NodeRef.BODY, pReal + BodyLayout.POS_OFFSET + 1);
        pos0z = reads.real(NodeRef.BODY, pReal + BodyLayout.POS_OFFSET + 2);
        phi0 = 0.0;
        acc0x = 0.0;
        acc0y = 0.0;
        acc0z = 0.0;
        myn2bterm = 0;
        mynbcterm = 0;
        skipself = false;
        walksub(root, rsize * rsize);
        return myn2bterm + mynbcterm;
    }

    private void walksub(final int n, final double dsq)
    {
        if (subdivp(n, dsq))
        {
            if (NodeRef.CELL == NodeRef.type(n))
            {
                final TreeReads reads = this.reads;
                final int base = NodeRef.index(n) * CellLayout.INT_STRIDE + CellLayout.SUBP_OFFSET;
                for (int i = 0; i < CellLayout.NSUB; i++)
                {
                    final int child = reads.cellInt(base + i);
                    if (NodeRef.NULL != child)
                    {
                        walksub(child, dsq / 4.0);
                    }
                }
            }
            else
            {
                final TreeReads reads = this.reads;
                final int base = NodeRef.index(n) * LeafLayout.INT_STRIDE;
                final int numBodies = reads.leafInt(base + LeafLayout.NUM_BODIES_OFFSET);
                for (int i = 0; i < numBodies; i++)
                {
                    final int p = reads.leafInt(base + LeafLayout.BODYP_OFFSET + i);
                    if (p != pskip)
                    {
                        gravsub(p);
                    }
                    else
                    {
                        skipself = true;
                    }
                }
            }
        }
        else
        {
            gravsub(n);
        }
    }

    /**
     * {@code subdivp()}: whether node {@code p} (a cell or leaf) must be opened; leaves the separation in
     * {@code dr}/{@code drsq} and remembers the node in {@code pmem}.
     */
    private boolean subdivp(final int p, final double dsq)
    {
        final TreeReads reads = this.reads;
        final int type = NodeRef.type(p);
        final int base = NodeRef.index(p) * NodeLayout.REAL_STRIDE + NodeLayout.POS_OFFSET;
        drx = reads.real(type, base) - pos0x;
        dry = reads.real(type, base + 1) - pos0y;
        drz = reads.real(type, base + 2) - pos0z;
        double s = drx * drx;
        s += dry * dry;
        s += drz * drz;
        drsq = s;
        pmem = p;
        return tolsq * drsq < dsq;
    }

    /**
     * {@code gravsub()}: one body-body or body-node interaction.
     */
    private void gravsub(final int p)
    {
        final TreeReads reads = this.reads;
        final int type = NodeRef.type(p);
        final int stride = NodeRef.BODY == type ? BodyLayout.REAL_STRIDE : NodeLayout.REAL_STRIDE;
        final int realBase = NodeRef.index(p) * stride;
        if (p != pmem)
        {
            final int lockId = optionalLocks ? parentLock(p) : -1;
            if (optionalLocks)
            {
                team.lock(lockId);
            }
            drx = reads.real(type, realBase + BodyLayout.POS_OFFSET) - pos0x;
            dry = reads.real(type, realBase + BodyLayout.POS_OFFSET + 1) - pos0y;
            drz = reads.real(type, realBase + BodyLayout.POS_OFFSET + 2) - pos0z;
            if (optionalLocks)
            {
                team.unlock(lockId);
            }
            double s = drx * drx;
            s += dry * dry;
            s += drz * drz;
            drsq = s;
        }
        drsq += epssq;
        final double drabs = Math.sqrt(drsq);
        final double phii = reads.real(type, realBase + BodyLayout.MASS_OFFSET) / drabs;
        phi0 -= phii;
        final double mor3 = phii / drsq;
        acc0x = acc0x + drx * mor3;
        acc0y = acc0y + dry * mor3;
        acc0z = acc0z + drz * mor3;
        if (NodeRef.BODY != type)
        {
            mynbcterm++;
        }
        else
        {
            myn2bterm++;
        }
    }

    /**
     * The C's {@code CL[((bodyptr) p)->parent->seqnum % MAXLOCK]}: the lock of the node's parent (a body's leaf, a
     * leaf's or cell's cell), as {@link CellLocks} maps it.
     */
    private int parentLock(final int p)
    {
        final int parent;
        switch (NodeRef.type(p))
        {
            case NodeRef.BODY:
                parent = bodyInts.get(NodeRef.index(p) * BodyLayout.INT_STRIDE + BodyLayout.PARENT_OFFSET);
                break;
            case NodeRef.LEAF:
                parent = leafInts.get(NodeRef.index(p) * LeafLayout.INT_STRIDE + NodeLayout.PARENT_OFFSET);
                break;
            default:
                parent = cellInts.get(NodeRef.index(p) * CellLayout.INT_STRIDE + NodeLayout.PARENT_OFFSET);
                break;
        }
        if (NodeRef.NULL == parent)
        {
            throw new IllegalStateException("gravsub: the root has no parent to lock");
        }
        return NodeRef.LEAF == NodeRef.type(parent) ?
            locks.of(leafInts, NodeRef.index(parent) * LeafLayout.INT_STRIDE) :
            locks.of(cellInts, NodeRef.index(parent) * CellLayout.INT_STRIDE);
    }
}
