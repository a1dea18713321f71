package org.viadsm.examples.waterspatial;

import java.util.Arrays;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.IntReadView;
import org.viadsm.examples.runtime.Team;
import org.viadsm.examples.runtime.VerificationException;
import org.viadsm.examples.water.Energies;
import org.viadsm.examples.water.GlobalLayout;
import org.viadsm.examples.water.Integrator;
import org.viadsm.examples.water.IntraMolecular;
import org.viadsm.examples.water.MolecularDynamics;
import org.viadsm.examples.water.MoleculeLayout;
import org.viadsm.examples.water.PairInteraction;
import org.viadsm.examples.water.WaterSystem;

import static org.viadsm.examples.water.MoleculeLayout.COORDINATES;
import static org.viadsm.examples.water.MoleculeLayout.DISP;
import static org.viadsm.examples.water.MoleculeLayout.FUNCTION_LENGTH;
import static org.viadsm.examples.water.MoleculeLayout.LENGTH;
import static org.viadsm.examples.water.MoleculeLayout.NDIR;
import static org.viadsm.examples.water.MoleculeLayout.O;
import static org.viadsm.examples.water.MoleculeLayout.VEL;
import static org.viadsm.examples.waterspatial.SpatialLayout.LINK_LENGTH;
import static org.viadsm.examples.waterspatial.SpatialLayout.NEXT;
import static org.viadsm.examples.waterspatial.SpatialLayout.NIL;

/**
 * WATER-SPATIAL's phases over this member's block of boxes: each box holds a linked list of the molecules whose
 * oxygen lies in it; a member computes the forces on the molecules of its boxes from the molecules of the 27
 * neighbouring boxes (every pair from both ends, hence the halved sums), and after each step moves molecules that
 * left their box to the list of their new box under the boxes' locks.
 * <p>
 * The kernels work on views (see {@link MolecularDynamics}), made after the last synchronization: a view of each
 * molecule's record for the per-molecule phases; in the pair loops, which synchronize nowhere, read views of every
 * link and list head (the neighbour boxes of a member's boxes hold most molecules) and update views of the forces
 * of the own box's molecules. {@code BNDRY} reads and relinks element by element, since it locks whenever a
 * molecule changes boxes; it moves a molecule back into the box through a view of its record.
 */
final class SpatialSimulation extends MolecularDynamics
{
    private static final int INITIAL_BOX_CAPACITY = 64;

    private final DoubleArray links;
    private final IntArray boxes;
    private final int boxPerSide;
    private final double boxLength;
    private final double boxl;
    private final int[] myX;
    private final int[] myY;
    private final int[] myZ;
    private final Integrator integrator;
    private final IntraMolecular intra = new IntraMolecular();
    private final PairInteraction pair;
    private int[] ownLinks = new int[INITIAL_BOX_CAPACITY];
    private double[] ownCoordinates = new double[INITIAL_BOX_CAPACITY * COORDINATES];
    // the own molecules' force views; Object[], not DoubleView[]: C2 (JDK 25) guards a store into an array of an
    // interface type with a speculative store check that always fails, and the trap (array_check) sent the pair
    // loop back to be compiled again
    private Object[] ownForces = new Object[INITIAL_BOX_CAPACITY];
    private DoubleView record;
    private DoubleReadView recordRead;
    private DoubleReadView velocities;
    private DoubleReadView allLinks;
    private IntReadView heads;

    SpatialSimulation(
        final Team team,
        final DoubleArray links,
        final IntArray boxes,
        final IntArray startEnd,
        final DoubleArray gl,
        final WaterSystem system,
        final SpatialGrid grid)
    {
        super(team, gl, system, false);
        this.links = links;
        this.boxes = boxes;
        this.boxPerSide = grid.boxPerSide();
        this.boxLength = grid.boxLength();
        this.boxl = system.boxl();
        this.integrator = new Integrator(system);
        this.pair = new PairInteraction(system);

        // MDMAIN's my_boxes list: the member's block of boxes, x slowest, z fastest.
        final int[] first = new int[NDIR];
        final int[] last = new int[NDIR];
        for (int dir = 0; dir < NDIR; dir++)
        {
            first[dir] = startEnd.get(SpatialLayout.startEnd(id, dir, false));
            last[dir] = startEnd.get(SpatialLayout.startEnd(id, dir, true));
        }
        final int count = Math.max(0, (last[0] - first[0] + 1) * (last[1] - first[1] + 1) * (last[2] - first[2] + 1));
        myX = new int[count];
        myY = new int[count];
        myZ = new int[count];
        int n = 0;
        for (int i = first[0]; i <= last[0]; i++)
        {
            for (int j = first[1]; j <= last[1]; j++)
            {
                for (int k = first[2]; k <= last[2]; k++)
                {
                    myX[n] = i;
                    myY[n] = j;
                    myZ[n] = k;
                    n++;
                }
            }
        }
        // empty views to re-wrap, so that the pair loop never passes null: its first re-wrap in a warm run would
        // otherwise meet the null case in code C2 compiled without it, trap (null_check) and recompile the loop
        this.allLinks = links.read(0, 0);
        this.heads = boxes.read(0, 0);
        emptyForceViews(0);
    }

    /**
     * Fills the own molecules' force views from {@code from} on with empty views (each its own: every slot is
     * re-wrapped on its own molecule's range), for the same reason: a first re-wrap of a null slot in a warm run
     * would trap (null_check) in the pair loop C2 compiled without it.
     */
    private void emptyForceViews(final int from)
    {
        for (int c = from; c < ownForces.length; c++)
        {
            ownForces[c] = links.update(0, 0);
        }
    }

    private int head(final int i, final int j, final int k)
    {
        return boxes.get(SpatialLayout.box(i, j, k, boxPerSide));
    }

    private int next(final int link)
    {
        return (int)links.get(link * LINK_LENGTH + NEXT);
    }

    private static int next(final DoubleReadView links, final int link)
    {
        return (int)links.get(link * LINK_LENGTH + NEXT);
    }

    /**
     * An update view of a molecule's record (without its link), made anew without allocating.
     */
    private DoubleView record(final int link)
    {
        final int base = link * LINK_LENGTH;
        record = links.update(base, base + LENGTH, record);
        return record;
    }

    @Override
    protected void intraf()
    {
        for (int b = 0; b < myX.length; b++)
        {
            for (int link = head(myX[b], myY[b], myZ[b]); NIL != link; link = next(link))
            {
                intra.forces(record(link), link * LINK_LENGTH);
            }
        }
        double lvir = 0.0;
        for (int b = 0; b < myX.length; b++)
        {
            for (int link = head(myX[b], myY[b], myZ[b]); NIL != link; link = next(link))
            {
                final int base = link * LINK_LENGTH;
                recordRead = links.read(base, base + LENGTH, recordRead);
                lvir = intra.virial(recordRead, base, lvir);
            }
        }
        addShared(SpatialLayout.INTRAF_VIR_LOCK, GlobalLayout.VIR, lvir);
    }

    /**
     * The coordinate of neighbour {@code n} (i - 1, i or i + 1) wrapped into the grid, or -1 if the C program skips
     * it: with two boxes per side only the two real boxes count.
     */
    private int wrap(final int n)
    {
        if (2 == boxPerSide && (n < 0 || 2 == n))
        {
            return -1;
        }
        // n is i - 1, i or i + 1: -1 wraps up, boxPerSide down; without a branch, as which of them occurs
        // depends on the box, and a branch's profile would depend on which boxes ran before C2 compiled the loop
        return n + (boxPerSide & (n >> 31)) - (boxPerSide & ((boxPerSide - 1 - n) >> 31));
    }

    @Override
    protected void interf(final int dest)
    {
        pair.resetSums();
        forcePairs(MoleculeLayout.f(dest, 0, 0));
        addShared(SpatialLayout.INTERF_VIR_LOCK, GlobalLayout.VIR, pair.virial() / 2.0);

        team.barrier();

        for (int b = 0; b < myX.length; b++)
        {
            for (int link = head(myX[b], myY[b], myZ[b]); NIL != link; link = next(link))
            {
                final int at = link * LINK_LENGTH + MoleculeLayout.f(dest, 0, 0);
                record = links.update(at, at + FUNCTION_LENGTH, record);
                integrator.scaleByMass(record, link * LINK_LENGTH, dest);
            }
        }
    }

    /**
     * The pair loop of {@code INTERF}: for each of this member's boxes, for each neighbour box, for each molecule
     * there, for each molecule of the own box but itself: the pair's forces, added to the own molecule's
     * {@code F[DEST]}. {@link #potentialPairs()} is the same loop for {@code POTENG}, a copy rather than one loop
     * with a flag: C2 compiles the loop during the first steps' {@code INTERF}s, where such a flag never says
     * energy, and the first {@code POTENG} then trapped (unstable_if) and sent the loop back to be compiled again.
     */
    private void forcePairs(final int destOffset)
    {
        final DoubleReadView all = links.read(0, links.length(), allLinks);
        final IntReadView heads = boxes.read(0, boxes.length(), this.heads);
        allLinks = all;
        this.heads = heads;
        for (int b = 0; b < myX.length; b++)
        {
            final int i = myX[b];
            final int j = myY[b];
            final int k = myZ[b];
            final int count = loadOwnBox(all, heads.get(SpatialLayout.box(i, j, k, boxPerSide)));
            final int[] own = ownLinks;
            final double[] coordinates = ownCoordinates;
            final Object[] dst = ownForces;
            for (int c = 0; c < count; c++)
            {
                final int at = own[c] * LINK_LENGTH + destOffset;
                dst[c] = links.update(at, at + FUNCTION_LENGTH, (DoubleView)dst[c]);
            }
            for (int xbox = i - 1; xbox <= i + 1; xbox++)
            {
                for (int ybox = j - 1; ybox <= j + 1; ybox++)
                {
                    for (int zbox = k - 1; zbox <= k + 1; zbox++)
                    {
                        final int neighbours = neighbourHead(heads, i, j, k, xbox, ybox, zbox);
                        for (int neighbour = neighbours; NIL != neighbour; neighbour = next(all, neighbour))
                        {
                            pair.second(all, neighbour * LINK_LENGTH);
                            for (int c = 0; c < count; c++)
                            {
                                final int curr = own[c];
                                if (curr == neighbour)
                                {
                                    continue;
                                }
                                pair.first(coordinates, c * COORDINATES);
                                if (pair.forces())
                                {
                                    pair.addToFirst((DoubleView)dst[c], curr * LINK_LENGTH + destOffset);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * The pair loop of {@code POTENG}: as {@link #forcePairs(int)}, with the pair's energy instead of its forces.
     */
    private void potentialPairs()
    {
        final DoubleReadView all = links.read(0, links.length(), allLinks);
        final IntReadView heads = boxes.read(0, boxes.length(), this.heads);
        allLinks = all;
        this.heads = heads;
        for (int b = 0; b < myX.length; b++)
        {
            final int i = myX[b];
            final int j = myY[b];
            final int k = myZ[b];
            final int count = loadOwnBox(all, heads.get(SpatialLayout.box(i, j, k, boxPerSide)));
            final int[] own = ownLinks;
            final double[] coordinates = ownCoordinates;
            for (int xbox = i - 1; xbox <= i + 1; xbox++)
            {
                for (int ybox = j - 1; ybox <= j + 1; ybox++)
                {
                    for (int zbox = k - 1; zbox <= k + 1; zbox++)
                    {
                        final int neighbours = neighbourHead(heads, i, j, k, xbox, ybox, zbox);
                        for (int neighbour = neighbours; NIL != neighbour; neighbour = next(all, neighbour))
                        {
                            pair.second(all, neighbour * LINK_LENGTH);
                            for (int c = 0; c < count; c++)
                            {
                                final int curr = own[c];
                                if (curr == neighbour)
                                {
                                    continue;
                                }
                                pair.first(coordinates, c * COORDINATES);
                                pair.potential();
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * Copies the own box's list, and the VM and displacements of its molecules, which no one changes during
     * {@code INTERF} and {@code POTENG}, so the inner pair loop reads them once per box instead of once per pair.
     *
     * @return the number of molecules in the box.
     */
    private int loadOwnBox(final DoubleReadView all, final int head)
    {
        int count = 0;
        for (int link = head; NIL != link; link = next(all, link))
        {
            if (count == ownLinks.length)
            {
                ownLinks = Arrays.copyOf(ownLinks, 2 * count);
                ownCoordinates = Arrays.copyOf(ownCoordinates, 2 * count * COORDINATES);
                ownForces = Arrays.copyOf(ownForces, 2 * count);
                emptyForceViews(count);
            }
            ownLinks[count] = link;
            final int base = link * LINK_LENGTH;
            final int at = count * COORDINATES;
            for (int i = 0; i < COORDINATES; i++)
            {
                ownCoordinates[at + i] = all.get(base + i);
            }
            count++;
        }
        return count;
    }

    /**
     * The list of neighbour box (xbox, ybox, zbox) of box (i, j, k), or NIL if the C program skips that neighbour
     * (outside a two-box grid, or the own box met again through wrapping).
     */
    private int neighbourHead(
        final IntReadView heads, final int i, final int j, final int k, final int xbox, final int ybox, final int zbox)
    {
        final int xnum = wrap(xbox);
        final int ynum = wrap(ybox);
        final int znum = wrap(zbox);
        if (xnum < 0 || ynum < 0 || znum < 0)
        {
            return NIL;
        }
        if (xnum == i && ynum == j && znum == k && (xbox != i || ybox != j || zbox != k))
        {
            return NIL;
        }
        return heads.get(SpatialLayout.box(xnum, ynum, znum, boxPerSide));
    }

    @Override
    protected void predic()
    {
        final int norder = integrator.norder();
        for (int b = 0; b < myX.length; b++)
        {
            for (int link = head(myX[b], myY[b], myZ[b]); NIL != link; link = next(link))
            {
                final DoubleView molecule = record(link);
                for (int func = 0; func < norder; func++)
                {
                    integrator.predict(molecule, link * LINK_LENGTH, func);
                }
            }
        }
    }

    @Override
    protected void correc()
    {
        for (int b = 0; b < myX.length; b++)
        {
            for (int link = head(myX[b], myY[b], myZ[b]); NIL != link; link = next(link))
            {
                integrator.correct(record(link), link * LINK_LENGTH);
            }
        }
    }

    @Override
    protected void bndry()
    {
        for (int b = 0; b < myX.length; b++)
        {
            final int i = myX[b];
            final int j = myY[b];
            final int k = myZ[b];
            final int box = SpatialLayout.box(i, j, k, boxPerSide);
            int last = NIL;
            int curr = boxes.get(box);
            while (NIL != curr)
            {
                final int following = next(curr);
                final int base = curr * LINK_LENGTH;
                for (int dir = 0; dir < NDIR; dir++)
                {
                    final int at = base + MoleculeLayout.f(DISP, dir, 0);
                    double o = links.get(at + O);
                    while (o > boxl || o < 0.00)
                    {
                        final DoubleView molecule = record(curr);
                        Integrator.translate(molecule, at, o > boxl ? -boxl : boxl);
                        o = molecule.get(at + O);
                    }
                }
                final int x = (int)(links.get(base + MoleculeLayout.f(DISP, 0, O)) / boxLength);
                final int y = (int)(links.get(base + MoleculeLayout.f(DISP, 1, O)) / boxLength);
                final int z = (int)(links.get(base + MoleculeLayout.f(DISP, 2, O)) / boxLength);
                if (x != i || y != j || z != k)
                {
                    team.lock(SpatialLayout.BOX_LOCK + box);
                    try
                    {
                        if (NIL != last)
                        {
                            links.set(last * LINK_LENGTH + NEXT, links.get(base + NEXT));
                        }
                        else
                        {
                            boxes.set(box, next(curr));
                        }
                    }
                    finally
                    {
                        team.unlock(SpatialLayout.BOX_LOCK + box);
                    }
                    final int target = SpatialLayout.box(x, y, z, boxPerSide);
                    team.lock(SpatialLayout.BOX_LOCK + target);
                    try
                    {
                        final int temp = boxes.get(target);
                        boxes.set(target, curr);
                        links.set(base + NEXT, temp);
                    }
                    finally
                    {
                        team.unlock(SpatialLayout.BOX_LOCK + target);
                    }
                }
                else
                {
                    last = curr;
                }
                curr = following;
            }
        }
    }

    @Override
    protected void kineti()
    {
        for (int dir = 0; dir < NDIR; dir++)
        {
            double s = 0.0;
            for (int b = 0; b < myX.length; b++)
            {
                for (int link = head(myX[b], myY[b], myZ[b]); NIL != link; link = next(link))
                {
                    final int at = link * LINK_LENGTH + MoleculeLayout.f(VEL, 0, 0);
                    velocities = links.read(at, at + FUNCTION_LENGTH, velocities);
                    s += Integrator.kinetic(velocities, link * LINK_LENGTH, dir);
                }
            }
            addShared(SpatialLayout.KINETI_SUM_LOCK, GlobalLayout.SUM + dir, s);
        }
    }

    @Override
    protected void poteng()
    {
        double lpota = 0.0;
        for (int b = 0; b < myX.length; b++)
        {
            for (int link = head(myX[b], myY[b], myZ[b]); NIL != link; link = next(link))
            {
                lpota = intra.potential(record(link), link * LINK_LENGTH, lpota);
            }
        }

        team.barrier();

        pair.resetSums();
        potentialPairs();
        final double lpotr = pair.potr() / 2.0;
        final double lptrf = pair.potrf() / 2.0;
        addPotentials(SpatialLayout.POTENG_SUM_LOCK, lpota, lpotr, lptrf);
    }

    @Override
    protected void print(final Energies energies)
    {
        team.lock(SpatialLayout.IO_LOCK);
        try
        {
            energies.printSpatial(team.out());
        }
        finally
        {
            team.unlock(SpatialLayout.IO_LOCK);
        }
    }

    /**
     * Checks on member 0, after the run, that the box lists hold every molecule exactly once, each in the box its
     * oxygen lies in.
     *
     * @param nmol number of molecules.
     * @throws VerificationException naming the first inconsistency.
     */
    void verifyLists(final int nmol)
    {
        final boolean[] seen = new boolean[nmol];
        int count = 0;
        for (int i = 0; i < boxPerSide; i++)
        {
            for (int j = 0; j < boxPerSide; j++)
            {
                for (int k = 0; k < boxPerSide; k++)
                {
                    for (int link = head(i, j, k); NIL != link; link = next(link))
                    {
                        if (link < 0 || link >= nmol || seen[link])
                        {
                            throw new VerificationException("box (" + i + ", " + j + ", " + k + ") lists molecule " +
                                link + (link >= 0 && link < nmol ? " a second time" : ", which does not exist"));
                        }
                        seen[link] = true;
                        count++;
                        final int base = link * LINK_LENGTH;
                        final int x = index(links.get(base + MoleculeLayout.f(DISP, 0, O)));
                        final int y = index(links.get(base + MoleculeLayout.f(DISP, 1, O)));
                        final int z = index(links.get(base + MoleculeLayout.f(DISP, 2, O)));
                        if (x != i || y != j || z != k)
                        {
                            throw new VerificationException("molecule " + link + " lies in box (" + x + ", " + y +
                                ", " + z + ") but is listed in box (" + i + ", " + j + ", " + k + ")");
                        }
                    }
                }
            }
        }
        if (count != nmol)
        {
            throw new VerificationException("the boxes list " + count + " molecules, not NMOL=" + nmol);
        }
    }

    private int index(final double coordinate)
    {
        final int index = (int)(coordinate / boxLength);
        return index >= boxPerSide ? boxPerSide - 1 : index;
    }
}
