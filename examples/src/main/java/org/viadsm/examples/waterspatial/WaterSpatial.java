package org.viadsm.examples.waterspatial;

import java.io.OutputStream;
import java.io.PrintStream;

import org.viadsm.dsm.Placement;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleView;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.IntView;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.Team;
import org.viadsm.examples.water.GlobalLayout;
import org.viadsm.examples.water.InitialVelocities;
import org.viadsm.examples.water.Lattice;
import org.viadsm.examples.water.MoleculeLayout;
import org.viadsm.examples.water.WaterApp;
import org.viadsm.examples.water.WaterParameters;
import org.viadsm.examples.water.WaterSystem;
import picocli.CommandLine.Command;

import static org.viadsm.examples.water.MoleculeLayout.DISP;
import static org.viadsm.examples.water.MoleculeLayout.NATOM;
import static org.viadsm.examples.water.MoleculeLayout.O;
import static org.viadsm.examples.waterspatial.SpatialLayout.LINK_LENGTH;
import static org.viadsm.examples.waterspatial.SpatialLayout.NEXT;
import static org.viadsm.examples.waterspatial.SpatialLayout.NIL;

/**
 * WATER-SPATIAL: molecular dynamics of liquid water on a 3-d grid of boxes at least a cutoff radius wide, so a
 * molecule interacts only with molecules in the 27 neighbouring boxes; ported from SPLASH-2. See the package
 * documentation for the flags, input, output and self-check.
 */
@Command(name = "water-spatial",
    description = "SPLASH-2 WATER-SPATIAL: water molecular dynamics on a grid of cutoff-sized boxes.")
public final class WaterSpatial extends WaterApp
{
    /**
     * Creates the application with the C program's defaults; picocli sets the options given.
     */
    public WaterSpatial()
    {
    }

    @Override
    protected void check(final WaterParameters deck, final int teamSize)
    {
        super.check(deck, teamSize);
        checkLattice(deck, Lattice.SPATIAL_EPSILON);
        final SpatialGrid grid = new SpatialGrid(new WaterSystem(deck));
        if (grid.numBoxes() > SpatialGrid.MAX_BOXES)
        {
            throw new IllegalArgumentException("too many boxes: BOX_PER_SIDE=" + grid.boxPerSide() +
                " (CUTOFF=" + deck.cutoff() + ")");
        }
        if (teamSize > grid.numBoxes())
        {
            throw new IllegalArgumentException("ERROR: less boxes (" + grid.numBoxes() + ") than processors (" +
                teamSize + "); a smaller CUTOFF gives more boxes");
        }
    }

    @Override
    protected void simulate(final Team team, final WaterParameters deck)
    {
        final PrintStream out = team.out();
        final boolean master = 0 == team.id();
        final int procs = team.size();
        final WaterSystem system = new WaterSystem(deck);
        final SpatialGrid grid = new SpatialGrid(system);
        final int nmol = system.nmol();
        final int numBoxes = (int)grid.numBoxes();
        if (master)
        {
            printDeck(out, deck, procs);
            printf(out, "%ld boxes with %ld processors\n\n", numBoxes, procs);
            printRun(out, deck, system, procs);
        }

        // Each processor's boxes, and the links of the molecules that start in them, live with it.
        final int boxPerSide = grid.boxPerSide();
        final int[] bounds = Partition.compute(procs, boxPerSide, new PrintStream(OutputStream.nullOutputStream()));
        final int[] molOwners = initialOwners(system, grid, bounds);
        final IntArray startEnd = team.ints(SpatialLayout.START_END_NAME, procs * SpatialLayout.START_END_LENGTH,
            Placement.byElement(element -> element / SpatialLayout.START_END_LENGTH));
        final IntArray boxes = team.ints(SpatialLayout.BOX_NAME, numBoxes,
            Placement.byElement(box -> Partition.owner(bounds, box, boxPerSide)));
        final DoubleArray gl = team.doubles(SpatialLayout.GL_NAME, GlobalLayout.LENGTH, Placement.onNode(0));
        final DoubleArray links = team.doubles(SpatialLayout.LINKS_NAME, nmol * LINK_LENGTH,
            Placement.byElement(element -> molOwners[element / LINK_LENGTH]));

        if (master)
        {
            Partition.compute(procs, grid.boxPerSide(), startEnd, out);
            boxes.fill(NIL);
            printCutoff(out, system);
            out.flush();
            initia(out, links, boxes, system, grid, velocities(nmol));
            startClock(out, gl, deck);
        }
        // The C master initializes before it creates the workers; here they wait for it at this barrier.
        team.barrier();

        countProcess(team, gl, SpatialLayout.INDEX_LOCK);
        final SpatialSimulation simulation = new SpatialSimulation(team, links, boxes, startEnd, gl, system, grid);
        final double xtt = simulation.run(deck.nstep(), deck.nprint(), deck.nsave());
        if (master)
        {
            printEnd(out, gl, xtt);
            simulation.verifyLists(nmol);
        }
    }

    /**
     * The processor each molecule starts with: the owner of the box its oxygen lies in at initialization.
     */
    static int[] initialOwners(final WaterSystem system, final SpatialGrid grid, final int[] bounds)
    {
        final int boxPerSide = grid.boxPerSide();
        final double boxLength = grid.boxLength();
        final int[] owners = new int[system.nmol()];
        new Lattice(system, Lattice.SPATIAL_EPSILON).visit((mol, x, y, z) -> owners[mol] = Partition.owner(bounds,
            SpatialLayout.box(boxIndex(x[O], boxLength, boxPerSide), boxIndex(y[O], boxLength, boxPerSide),
            boxIndex(z, boxLength, boxPerSide), boxPerSide), boxPerSide));
        return owners;
    }

    /**
     * {@code INITIA}: one link per lattice site, in order, with its velocities, appended to the list of the box
     * its oxygen lies in; then the velocities normalized box by box.
     */
    private static void initia(
        final PrintStream out,
        final DoubleArray links,
        final IntArray boxes,
        final WaterSystem system,
        final SpatialGrid grid,
        final double[] numbers)
    {
        final int nmol = system.nmol();
        final int boxPerSide = grid.boxPerSide();
        final double boxLength = grid.boxLength();
        final Lattice lattice = new Lattice(system, Lattice.SPATIAL_EPSILON);
        printLattice(out, lattice, system, CFormat.format("BOX_LENGTH = %10f\nBOX_PER_SIDE = %ld\n",
            boxLength, boxPerSide));
        out.flush();
        final InitialVelocities velocities = new InitialVelocities(numbers, nmol);
        final DoubleView all = links.update(0, nmol * LINK_LENGTH);
        final IntView heads = boxes.update(0, boxes.length());
        lattice.visit((mol, x, y, z) ->
        {
            final int base = mol * LINK_LENGTH;
            for (int atom = 0; atom < NATOM; atom++)
            {
                all.set(base + MoleculeLayout.f(DISP, 0, atom), x[atom]);
                all.set(base + MoleculeLayout.f(DISP, 1, atom), y[atom]);
                all.set(base + MoleculeLayout.f(DISP, 2, atom), z);
            }
            velocities.load(all, base);
            all.set(base + NEXT, NIL);
            final int box = SpatialLayout.box(
                boxIndex(all.get(base + MoleculeLayout.f(DISP, 0, O)), boxLength, boxPerSide),
                boxIndex(all.get(base + MoleculeLayout.f(DISP, 1, O)), boxLength, boxPerSide),
                boxIndex(all.get(base + MoleculeLayout.f(DISP, 2, O)), boxLength, boxPerSide),
                boxPerSide);
            final int head = heads.get(box);
            if (NIL == head)
            {
                heads.set(box, mol);
            }
            else
            {
                int last = head;
                for (int link = head; NIL != link; link = (int)all.get(link * LINK_LENGTH + NEXT))
                {
                    last = link;
                }
                all.set(last * LINK_LENGTH + NEXT, mol);
            }
        });

        velocities.average();
        for (int box = 0; box < heads.to(); box++)
        {
            for (int link = heads.get(box); NIL != link; link = (int)all.get(link * LINK_LENGTH + NEXT))
            {
                velocities.accumulate(all, link * LINK_LENGTH);
            }
        }
        velocities.scale(system);
        for (int box = 0; box < heads.to(); box++)
        {
            for (int link = heads.get(box); NIL != link; link = (int)all.get(link * LINK_LENGTH + NEXT))
            {
                velocities.normalize(all, link * LINK_LENGTH);
            }
        }
    }

    /**
     * The box of a coordinate at initialization: truncated, and pulled back inside if it reaches the far side.
     */
    private static int boxIndex(final double coordinate, final double boxLength, final int boxPerSide)
    {
        final int index = (int)(coordinate / boxLength);
        return index >= boxPerSide ? index - 1 : index;
    }
}
