package org.viadsm.examples.barnes;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.LongArray;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.Team;

/**
 * One processor's share of the tree build ({@code load.c}): {@code maketree}, {@code loadtree},
 * {@code SubdivideLeaf}, {@code makecell}/{@code makeleaf}, and the master's {@code init_root}; the centres of mass
 * are {@link CentreOfMass}'s.
 * Bodies are inserted concurrently under the per-cell locks {@code CellLock->CL[seqnum % MAXLOCK]}, two critical
 * sections per level descended, as Splash-3 does.
 * <p>
 * <b>Note:</b> used by one member's thread.
 */
final class TreeBuilder
{
    private static final int NDIM = 3;

    private final Team team;
    private final int id;
    private final int maxmycell;
    private final int maxmyleaf;
    private final DoubleArray bodies;
    private final IntArray bodyInts;
    private final DoubleArray global;
    private final LongArray counts;
    private final DoubleArray cells;
    private final IntArray cellInts;
    private final DoubleArray leaves;
    private final IntArray leafInts;
    private final IntArray mybodytab;
    private final IntArray mycelltab;
    private final IntArray myleaftab;
    private final int bodyTabBase;
    private final int cellTabBase;
    private final int leafTabBase;

    private int mynumcell;
    private int mynumleaf;
    private int myncell;
    private int mynleaf;
    private int currentRoot;
    private final long[] rootCoords = new long[NDIM];
    private final long[] xp = new long[NDIM];
    private final long[] xor = new long[NDIM];
    private final long[] subXp = new long[NDIM];
    private final int[] leafBodies = new int[LeafLayout.MAX_BODIES_PER_LEAF];
    private final double[] rmin = new double[NDIM];
    private double rsize;
    private int root;
    private final CentreOfMass centreOfMass;
    private final CellLocks locks;

    TreeBuilder(final Team team, final BarnesShared shared)
    {
        this.team = team;
        this.id = team.id();
        this.maxmycell = shared.maxmycell;
        this.maxmyleaf = shared.maxmyleaf;
        this.bodies = shared.bodies;
        this.bodyInts = shared.bodyInts;
        this.global = shared.global;
        this.counts = shared.counts;
        this.cells = shared.cells;
        this.cellInts = shared.cellInts;
        this.leaves = shared.leaves;
        this.leafInts = shared.leafInts;
        this.mybodytab = shared.mybodytab;
        this.mycelltab = shared.mycelltab;
        this.myleaftab = shared.myleaftab;
        this.bodyTabBase = id * shared.maxmybody;
        this.cellTabBase = id * maxmycell;
        this.leafTabBase = id * maxmyleaf;
        this.centreOfMass = new CentreOfMass(team, shared);
        this.locks = shared.locks;
    }

    /**
     * {@code init_root()}, on the master: cell 0 of its pool becomes the root; its next cell is 1. The master's leaf
     * pool is not rewound, as in the C, so it grows by one step's leaves every step.
     */
    void initRoot()
    {
        final int rootRef = NodeRef.of(NodeRef.CELL, 0);
        counts.set(GlobalLayout.G_ROOT_OFFSET, rootRef);
        cellInts.set(NodeLayout.SEQNUM_OFFSET, 0);
        cellInts.set(NodeLayout.DONE_OFFSET, 0);
        cellInts.set(NodeLayout.LEVEL_OFFSET, NodeLayout.encodeLevel(NodeLayout.IMAX >> 1));
        for (int i = 0; i < CellLayout.NSUB; i++)
        {
            cellInts.set(CellLayout.SUBP_OFFSET + i, NodeRef.NULL);
        }
        mynumcell = 1;
    }

    /**
     * The other processors' rewind of their pools at the start of a step.
     */
    void resetPools()
    {
        mynumcell = 0;
        mynumleaf = 0;
    }

    /**
     * {@code maketree()}: inserts this processor's bodies, then (after a barrier) computes its cells' centres of
     * mass, then a barrier.
     */
    void maketree(final int mynbody)
    {
        myncell = 0;
        mynleaf = 0;
        root = (int)counts.get(GlobalLayout.G_ROOT_OFFSET);
        for (int i = 0; i < NDIM; i++)
        {
            rmin[i] = global.get(GlobalLayout.RMIN_OFFSET + i);
        }
        rsize = global.get(GlobalLayout.RSIZE_OFFSET);
        if (0 == id)
        {
            mycelltab.set(cellTabBase + myncell++, root);
        }
        currentRoot = root;
        for (int i = 0; i < mynbody; i++)
        {
            final int p = mybodytab.get(bodyTabBase + i);
            if (0.0 != bodies.get(NodeRef.index(p) * BodyLayout.REAL_STRIDE + BodyLayout.MASS_OFFSET))
            {
                currentRoot = loadtree(p, currentRoot);
            }
            else
            {
                team.lock(GlobalLayout.IO_LOCK);
                System.err.println(CFormat.format("Process %ld found body %ld to have zero mass", id,
                    NodeRef.index(p)));
                team.unlock(GlobalLayout.IO_LOCK);
            }
        }
        team.barrier();
        centreOfMass.hackcofm(mynleaf, myncell);
        team.barrier();
    }

    /**
     * {@code loadtree()}: descends from the root and inserts body {@code p}; returns the cell that holds its leaf.
     * The check of {@code root} against the previous body's coordinates is kept although the C then starts from
     * the global root regardless.
     */
    private int loadtree(final int p, final int startRoot)
    {
        int treeRoot = startRoot;
        intcoord(xp, p);
        boolean validRoot = true;
        for (int i = 0; i < NDIM; i++)
        {
            xor[i] = xp[i] ^ rootCoords[i];
        }
        long i;
        for (i = NodeLayout.IMAX >> 1; i > cellLevel(treeRoot); i >>= 1)
        {
            validRoot = !differsAt(i);
            if (!validRoot)
            {
                break;
            }
        }
        if (!validRoot && treeRoot != root)
        {
            final long rootLevel = cellLevel(treeRoot);
            for (long j = i; j > rootLevel; j >>= 1)
            {
                treeRoot = cellInts.get(NodeRef.index(treeRoot) * CellLayout.INT_STRIDE + NodeLayout.PARENT_OFFSET);
            }
            validRoot = true;
            for (i = NodeLayout.IMAX >> 1; i > cellLevel(treeRoot); i >>= 1)
            {
                if (validRoot && differsAt(i))
                {
                    validRoot = false;
                }
                if (!validRoot)
                {
                    team.out().print(CFormat.format("P%ld body %ld\n", id, NodeRef.index(p)));
                    treeRoot = root;
                }
            }
        }

        int mynode = root;
        int kidIndex = subindex(xp, cellLevel(mynode));
        int qslot = NodeRef.index(mynode) * CellLayout.INT_STRIDE + CellLayout.SUBP_OFFSET + kidIndex;
        long l = cellLevel(mynode) >> 1;
        boolean flag = true;
        int parent = NodeRef.NULL;
        while (flag)
        {
            if (0 == l)
            {
                throw new IllegalStateException("not enough levels in tree: body " + NodeRef.index(p));
            }
            final int lockId = locks.of(cellInts, NodeRef.index(mynode) * CellLayout.INT_STRIDE);
            team.lock(lockId);
            if (NodeRef.NULL == cellInts.get(qslot))
            {
                final int le = initLeaf(mynode);
                final int leBase = NodeRef.index(le) * LeafLayout.INT_STRIDE;
                leafInts.set(leBase + NodeLayout.CHILD_NUM_OFFSET, kidIndex);
                insertBody(p, le, l);
                cellInts.set(qslot, le);
                flag = false;
                parent = leafInts.get(leBase + NodeLayout.PARENT_OFFSET);
            }
            team.unlock(lockId);
            if (flag)
            {
                team.lock(lockId);
                final int q = cellInts.get(qslot);
                if (NodeRef.NULL != q && NodeRef.LEAF == NodeRef.type(q))
                {
                    final int leBase = NodeRef.index(q) * LeafLayout.INT_STRIDE;
                    if (LeafLayout.MAX_BODIES_PER_LEAF == leafInts.get(leBase + LeafLayout.NUM_BODIES_OFFSET))
                    {
                        cellInts.set(qslot, subdivideLeaf(q, mynode, l));
                    }
                    else
                    {
                        insertBody(p, q, l);
                        flag = false;
                        parent = leafInts.get(leBase + NodeLayout.PARENT_OFFSET);
                    }
                }
                team.unlock(lockId);
            }
            if (flag)
            {
                mynode = cellInts.get(qslot);
                kidIndex = subindex(xp, l);
                qslot = NodeRef.index(mynode) * CellLayout.INT_STRIDE + CellLayout.SUBP_OFFSET + kidIndex;
                l = l >> 1;
            }
        }
        System.arraycopy(xp, 0, rootCoords, 0, NDIM);
        return parent;
    }

    private boolean differsAt(final long bit)
    {
        for (int j = 0; j < NDIM; j++)
        {
            if (0 != (xor[j] & bit))
            {
                return true;
            }
        }
        return false;
    }

    private long cellLevel(final int cell)
    {
        return NodeLayout.decodeLevel(cellInts.get(NodeRef.index(cell) * CellLayout.INT_STRIDE +
            NodeLayout.LEVEL_OFFSET));
    }

    /**
     * Appends body {@code p} to leaf {@code le} at level {@code level}: the body's parent, level and child number,
     * then {@code Bodyp(le)[le->num_bodies++] = p}.
     */
    private void insertBody(final int p, final int le, final long level)
    {
        final int leBase = NodeRef.index(le) * LeafLayout.INT_STRIDE;
        final int pBase = NodeRef.index(p) * BodyLayout.INT_STRIDE;
        final int numBodies = leafInts.get(leBase + LeafLayout.NUM_BODIES_OFFSET);
        bodyInts.set(pBase + BodyLayout.PARENT_OFFSET, le);
        bodyInts.set(pBase + BodyLayout.LEVEL_OFFSET, NodeLayout.encodeLevel(level));
        bodyInts.set(pBase + BodyLayout.CHILD_NUM_OFFSET, numBodies);
        leafInts.set(leBase + LeafLayout.BODYP_OFFSET + numBodies, p);
        leafInts.set(leBase + LeafLayout.NUM_BODIES_OFFSET, numBodies + 1);
    }

    /**
     * {@code intcoord()}: the body's integer coordinates in [0, IMAX) within the root box.
     */
    private void intcoord(final long[] coords, final int p)
    {
        final int base = NodeRef.index(p) * BodyLayout.REAL_STRIDE + BodyLayout.POS_OFFSET;
        for (int k = 0; k < NDIM; k++)
        {
            final double xsc = (bodies.get(base + k) - rmin[k]) / rsize;
            if (0.0 <= xsc && xsc < 1.0)
            {
                coords[k] = (long)Math.floor(NodeLayout.IMAX * xsc);
            }
            else
            {
                throw new IllegalStateException("body " + NodeRef.index(p) + " lies outside the root cell: " +
                    "coordinate " + k + " scaled to " + xsc);
            }
        }
    }

    /**
     * {@code subindex()}: which of the eight children holds coordinates {@code x} at level {@code l}.
     */
    private static int subindex(final long[] x, final long l)
    {
        int i = 0;
        boolean yes = false;
        if (0 != (x[0] & l))
        {
            i += CellLayout.NSUB >> 1;
            yes = true;
        }
        for (int k = 1; k < NDIM; k++)
        {
            final boolean set = 0 != (x[k] & l);
            if ((set && !yes) || (!set && yes))
            {
                i += CellLayout.NSUB >> (k + 1);
                yes = true;
            }
            else
            {
                yes = false;
            }
        }
        return i;
    }

    /**
     * {@code SubdivideLeaf()}: replaces a full leaf by a cell holding it and new leaves; returns the cell.
     */
    private int subdivideLeaf(final int leaf, final int parent, final long l)
    {
        int le = leaf;
        final int leBase = NodeRef.index(le) * LeafLayout.INT_STRIDE;
        final int numBodies = leafInts.get(leBase + LeafLayout.NUM_BODIES_OFFSET);
        for (int i = 0; i < numBodies; i++)
        {
            leafBodies[i] = leafInts.get(leBase + LeafLayout.BODYP_OFFSET + i);
            leafInts.set(leBase + LeafLayout.BODYP_OFFSET + i, NodeRef.NULL);
        }
        leafInts.set(leBase + LeafLayout.NUM_BODIES_OFFSET, 0);
        final int c = initCell(parent);
        final int cBase = NodeRef.index(c) * CellLayout.INT_STRIDE;
        cellInts.set(cBase + NodeLayout.CHILD_NUM_OFFSET, leafInts.get(leBase + NodeLayout.CHILD_NUM_OFFSET));

        int p = leafBodies[0];
        intcoord(subXp, p);
        int index = subindex(subXp, l);
        cellInts.set(cBase + CellLayout.SUBP_OFFSET + index, le);
        leafInts.set(leBase + NodeLayout.CHILD_NUM_OFFSET, index);
        leafInts.set(leBase + NodeLayout.PARENT_OFFSET, c);
        leafInts.set(leBase + NodeLayout.LEVEL_OFFSET, NodeLayout.encodeLevel(l >> 1));
        insertBody(p, le, l >> 1);
        for (int i = 1; i < numBodies; i++)
        {
            p = leafBodies[i];
            intcoord(subXp, p);
            index = subindex(subXp, l);
            le = cellInts.get(cBase + CellLayout.SUBP_OFFSET + index);
            if (NodeRef.NULL == le)
            {
                le = initLeaf(c);
                leafInts.set(NodeRef.index(le) * LeafLayout.INT_STRIDE + NodeLayout.CHILD_NUM_OFFSET, index);
                cellInts.set(cBase + CellLayout.SUBP_OFFSET + index, le);
            }
            insertBody(p, le, l >> 1);
        }
        return c;
    }

    /**
     * {@code InitCell()}: a new cell below {@code parent}.
     */
    private int initCell(final int parent)
    {
        final int c = makecell();
        final int base = NodeRef.index(c) * CellLayout.INT_STRIDE;
        initNode(cellInts, base, parent);
        return c;
    }

    /**
     * {@code InitLeaf()}: a new leaf below {@code parent}.
     */
    private int initLeaf(final int parent)
    {
        final int le = makeleaf();
        final int base = NodeRef.index(le) * LeafLayout.INT_STRIDE;
        initNode(leafInts, base, parent);
        return le;
    }

    private void initNode(final IntArray ints, final int base, final int parent)
    {
        ints.set(base + NodeLayout.PROCESSOR_OFFSET, id);
        final long level = NodeRef.NULL == parent ? NodeLayout.IMAX >> 1 : cellLevel(parent) >> 1;
        ints.set(base + NodeLayout.LEVEL_OFFSET, NodeLayout.encodeLevel(level));
        ints.set(base + NodeLayout.PARENT_OFFSET, parent);
        ints.set(base + NodeLayout.CHILD_NUM_OFFSET, 0);
    }

    /**
     * {@code makecell()}: the next cell of this processor's pool.
     */
    private int makecell()
    {
        if (mynumcell == maxmycell)
        {
            throw new IllegalStateException(CFormat.format(
                "makecell: Proc %ld needs more than %ld cells; increase fcells", id, maxmycell));
        }
        final int seqnum = id * maxmycell + mynumcell++;
        clearNode(cells, cellInts, seqnum, CellLayout.INT_STRIDE, CellLayout.SUBP_OFFSET, CellLayout.NSUB);
        final int c = NodeRef.of(NodeRef.CELL, seqnum);
        mycelltab.set(cellTabBase + myncell++, c);
        return c;
    }

    /**
     * {@code makeleaf()}: the next leaf of this processor's pool.
     */
    private int makeleaf()
    {
        if (mynumleaf == maxmyleaf)
        {
            throw new IllegalStateException(CFormat.format(
                "makeleaf: Proc %ld needs more than %ld leaves; increase fleaves", id, maxmyleaf));
        }
        final int seqnum = id * maxmyleaf + mynumleaf++;
        leafInts.set(seqnum * LeafLayout.INT_STRIDE + LeafLayout.NUM_BODIES_OFFSET, 0);
        clearNode(leaves, leafInts, seqnum, LeafLayout.INT_STRIDE, LeafLayout.BODYP_OFFSET,
            LeafLayout.MAX_BODIES_PER_LEAF);
        final int le = NodeRef.of(NodeRef.LEAF, seqnum);
        myleaftab.set(leafTabBase + mynleaf++, le);
        return le;
    }

    /**
     * What {@code makecell} and {@code makeleaf} reset in a recycled node: its seqnum, done flag, mass and children.
     */
    private static void clearNode(
        final DoubleArray reals,
        final IntArray ints,
        final int seqnum,
        final int intStride,
        final int childrenOffset,
        final int children)
    {
        final int base = seqnum * intStride;
        ints.set(base + NodeLayout.SEQNUM_OFFSET, seqnum);
        ints.set(base + NodeLayout.DONE_OFFSET, 0);
        reals.set(seqnum * NodeLayout.REAL_STRIDE + NodeLayout.MASS_OFFSET, 0.0);
        ints.fill(base + childrenOffset, base + childrenOffset + children, NodeRef.NULL);
    }
}
