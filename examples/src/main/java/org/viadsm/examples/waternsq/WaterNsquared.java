package org.viadsm.examples.waternsq;

import java.io.PrintStream;

import org.viadsm.dsm.Placement;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleView;
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
import static org.viadsm.examples.water.MoleculeLayout.LENGTH;
import static org.viadsm.examples.water.MoleculeLayout.NATOM;

/**
 * WATER-NSQUARED: molecular dynamics of liquid water with an O(n^2) all-pairs force computation, ported from
 * SPLASH-2. See the package documentation for the flags, input, output and self-check.
 */
@Command(name = "water-nsquared",
    description = "SPLASH-2 WATER-NSQUARED: water molecular dynamics, all pairs within a half ring.")
public final class WaterNsquared extends WaterApp
{
    /**
     * Creates the application with the C program's defaults; picocli sets the options given.
     */
    public WaterNsquared()
    {
    }

    @Override
    protected void check(final WaterParameters deck, final int teamSize)
    {
        super.check(deck, teamSize);
        checkLattice(deck, Lattice.NSQUARED_EPSILON);
        if ((long)teamSize * deck.nmol() * NsquaredLayout.FORCE_LENGTH > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("private force blocks exceed 2^31 doubles: NMOL=" + deck.nmol() +
                " teamSize=" + teamSize);
        }
    }

    @Override
    protected void simulate(final Team team, final WaterParameters deck)
    {
        final PrintStream out = team.out();
        final boolean master = 0 == team.id();
        final int procs = team.size();
        final WaterSystem system = new WaterSystem(deck);
        final int nmol = system.nmol();
        if (master)
        {
            if (nmol > NsquaredLayout.MAXLCKS)
            {
                System.err.printf("Just so you know ... Lock array in global.H has size %d < %d (NMOL)%n" +
                    " code will still run correctly but there may be lock contention%n%n",
                    NsquaredLayout.MAXLCKS, nmol);
            }
            printDeck(out, deck, procs);
        }

        // Each processor's block of molecules and its private force array live with it; the sums with the master.
        final int[] startMol = NsquaredSimulation.startMol(nmol, procs);
        final DoubleArray var = team.doubles(NsquaredLayout.VAR_NAME, nmol * LENGTH,
            Placement.byElement(element -> owner(startMol, element / LENGTH)));
        final DoubleArray gl = team.doubles(NsquaredLayout.GL_NAME, GlobalLayout.LENGTH, Placement.onNode(0));
        final int forcesLength = nmol * NsquaredLayout.FORCE_LENGTH;
        final DoubleArray pforces = team.doubles(NsquaredLayout.PFORCES_NAME, procs * forcesLength,
            Placement.byElement(element -> element / forcesLength));

        if (master)
        {
            printRun(out, deck, system, procs);
            printCutoff(out, system);
            out.flush();
            initia(out, var, system, velocities(nmol));
            startClock(out, gl, deck);
        }
        // The C master initializes before it creates the workers; here they wait for it at this barrier.
        team.barrier();

        countProcess(team, gl, NsquaredLayout.INDEX_LOCK);
        final NsquaredSimulation simulation = new NsquaredSimulation(team, var, gl, pforces, system, startMol);
        final double xtt = simulation.run(deck.nstep(), deck.nprint(), deck.nsave());
        if (master)
        {
            printEnd(out, gl, xtt);
        }
    }

    /**
     * The processor whose block holds a molecule.
     */
    private static int owner(final int[] startMol, final int mol)
    {
        int pid = 0;
        while (pid + 2 < startMol.length && mol >= startMol[pid + 1])
        {
            pid++;
        }
        return pid;
    }

    /**
     * {@code INITIA}: molecules on the lattice in order, then their velocities in order.
     */
    private static void initia(
        final PrintStream out, final DoubleArray var, final WaterSystem system, final double[] numbers)
    {
        final Lattice lattice = new Lattice(system, Lattice.NSQUARED_EPSILON);
        printLattice(out, lattice, system, "");
        out.flush();
        final int nmol = system.nmol();
        final DoubleView molecules = var.update(0, nmol * LENGTH);
        lattice.visit((mol, x, y, z) ->
        {
            for (int atom = 0; atom < NATOM; atom++)
            {
                molecules.set(mol * LENGTH + MoleculeLayout.f(DISP, 0, atom), x[atom]);
                molecules.set(mol * LENGTH + MoleculeLayout.f(DISP, 1, atom), y[atom]);
                molecules.set(mol * LENGTH + MoleculeLayout.f(DISP, 2, atom), z);
            }
        });
        final InitialVelocities velocities = new InitialVelocities(numbers, nmol);
        for (int mol = 0; mol < nmol; mol++)
        {
            velocities.load(molecules, mol * LENGTH);
        }
        velocities.average();
        for (int mol = 0; mol < nmol; mol++)
        {
            velocities.accumulate(molecules, mol * LENGTH);
        }
        velocities.scale(system);
        for (int mol = 0; mol < nmol; mol++)
        {
            velocities.normalize(molecules, mol * LENGTH);
        }
    }
}
