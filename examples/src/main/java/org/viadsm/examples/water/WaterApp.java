package org.viadsm.examples.water;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.examples.runtime.App;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.Team;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import static org.viadsm.examples.water.WaterConstants.RHO;
import static org.viadsm.examples.water.WaterConstants.TEMP;

/**
 * What the two WATER ports share around the simulation: the command line (input deck as a file or on standard
 * input, the velocities file), the checks of the deck, and the lines both C programs print before and after the time
 * steps.
 * <p>
 * The deck's processor count (NumProcs) is replaced by the team size; when they differ member 0 says so on standard
 * error and the run goes on with the team size, which is what the printed "Using N procs" shows.
 */
public abstract class WaterApp extends App
{
    /**
     * Name of the velocities file the C programs open in the current directory.
     */
    public static final String RANDOM_IN = "random.in";

    /**
     * Most molecules a port accepts: every shared array must stay below 2^31 elements.
     */
    public static final long MAX_MOLECULES = 1L << 21;

    @Parameters(index = "0", arity = "0..1", paramLabel = "INPUT",
        description = "Input deck: TSTEP NMOL NSTEP NORDER NSAVE NRST NPRINT NFMC NumProcs CUTOFF " +
        "(default: standard input). NumProcs is replaced by the team size.")
    private Path input;

    @Option(names = "--velocities", paramLabel = "FILE",
        description = "Initial velocity numbers in random.in's format (default: ./random.in if it exists, " +
        "else generated).")
    private Path velocitiesFile;

    @Option(names = "--write-velocities", paramLabel = "FILE",
        description = "Write the velocity numbers used to FILE in random.in's format.")
    private Path writeVelocitiesFile;

    @Option(names = {"-h", "-H"}, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    private WaterParameters parameters;

    /**
     * Creates the application; picocli sets its options.
     */
    protected WaterApp()
    {
    }

    /**
     * The input deck, read on first use from the file or standard input.
     *
     * @return the parameters.
     * @throws IllegalArgumentException naming the file and line if it cannot be read or parsed.
     */
    protected final WaterParameters parameters()
    {
        if (null == parameters)
        {
            parameters = null == input ? WaterParameters.readStandardInput() : WaterParameters.read(input);
        }
        return parameters;
    }

    /**
     * Reads standard input when no deck file is given, as the C programs do.
     *
     * @return true without an input file.
     */
    @Override
    public final boolean readsStandardInput()
    {
        return null == input;
    }

    /**
     * Reads the input deck and checks it against the team size.
     *
     * @param teamSize number of members that will run.
     * @throws IllegalArgumentException naming the offending field and value.
     */
    @Override
    public final void validate(final int teamSize)
    {
        check(parameters(), teamSize);
    }

    /**
     * Checks what the C programs need of the deck and the processor count: a positive NPRINT (the C programs divide
     * by it), NORDER in [3, 7], a cube number of molecules (the lattice), no fewer molecules than members and a
     * non-negative NSTEP. Subclasses add their own checks.
     *
     * @param deck     the deck.
     * @param teamSize number of members.
     * @throws IllegalArgumentException naming the offending field and value.
     */
    protected void check(final WaterParameters deck, final int teamSize)
    {
        if (teamSize < 1)
        {
            throw new IllegalArgumentException("team size must be at least 1: teamSize=" + teamSize);
        }
        if (deck.nmol() < 1 || deck.nmol() > MAX_MOLECULES)
        {
            throw new IllegalArgumentException("NMOL must be between 1 and " + MAX_MOLECULES + ": NMOL=" +
                deck.nmol());
        }
        if (deck.nmol() < teamSize)
        {
            throw new IllegalArgumentException("every processor needs a molecule: NMOL=" + deck.nmol() +
                " teamSize=" + teamSize);
        }
        if (deck.nstep() < 0)
        {
            throw new IllegalArgumentException("NSTEP must not be negative: NSTEP=" + deck.nstep());
        }
        if (deck.nprint() < 1)
        {
            throw new IllegalArgumentException("NPRINT must be positive: NPRINT=" + deck.nprint());
        }
        WaterSystem.checkOrder(deck.norder());
    }

    /**
     * Checks that the lattice places exactly NMOL molecules, as the C program's "Lattice init error" does.
     *
     * @param deck    the deck.
     * @param epsilon the program's NS epsilon.
     * @throws IllegalArgumentException if NMOL is not a cube.
     */
    protected static void checkLattice(final WaterParameters deck, final double epsilon)
    {
        final long sites = Lattice.sites(deck.nmol(), epsilon);
        if (sites != deck.nmol())
        {
            throw new IllegalArgumentException("Lattice init error: total mol " + sites + " != NMOL " +
                deck.nmol() + " (NMOL must be a cube: 8, 27, 64, ... 512, ...)");
        }
    }

    /**
     * Reads the deck, checks it and runs {@link #simulate(Team, WaterParameters)}.
     *
     * @param team this member's view of the team.
     * @throws Exception on any failure.
     */
    @Override
    public final void run(final Team team) throws Exception
    {
        final WaterParameters deck = parameters();
        check(deck, team.size());
        if (0 == team.id() && deck.numProcs() != team.size())
        {
            System.err.println("note: the input deck gives NumProcs=" + deck.numProcs() + "; running on " +
                team.size() + " (the team size)");
        }
        simulate(team, deck);
    }

    /**
     * Runs the program as one member.
     *
     * @param team this member.
     * @param deck the checked deck.
     * @throws Exception on any failure.
     */
    protected abstract void simulate(Team team, WaterParameters deck) throws Exception;

    /**
     * The velocity numbers of the run, for member 0's {@code INITIA}: from {@code --velocities}, else from
     * {@code ./random.in} if it exists, else {@link Velocities#generate(int) generated}; written to
     * {@code --write-velocities} if given.
     *
     * @param nmol number of molecules.
     * @return {@link Velocities#count(int)} numbers.
     * @throws IllegalArgumentException naming the file if it cannot be read or holds too few numbers.
     */
    protected final double[] velocities(final int nmol)
    {
        final int count = Velocities.count(nmol);
        Path file = velocitiesFile;
        if (null == file && Files.isRegularFile(Path.of(RANDOM_IN)))
        {
            file = Path.of(RANDOM_IN);
        }
        final double[] values = null == file ? Velocities.generate(count) : Velocities.read(file, count);
        if (null != writeVelocitiesFile)
        {
            Velocities.write(writeVelocitiesFile, values);
        }
        return values;
    }

    /**
     * Prints with C's {@code printf} rules.
     *
     * @param out    the stream.
     * @param format a C format.
     * @param args   the arguments.
     */
    protected static void printf(final PrintStream out, final String format, final Object... args)
    {
        out.print(CFormat.format(format, args));
    }

    /**
     * The first lines of both programs: the processor, step and molecule counts and the deck's other fields.
     *
     * @param out   the stream.
     * @param deck  the deck.
     * @param procs the processor count in use.
     */
    protected static void printDeck(final PrintStream out, final WaterParameters deck, final int procs)
    {
        printf(out, "Using %ld procs on %ld steps of %ld mols\n", procs, deck.nstep(), deck.nmol());
        printf(out, "Other parameters:\n\tTSTEP = %8.2e\n\tNORDER = %ld\n\tNSAVE = %ld\n",
            deck.tstep(), deck.norder(), deck.nsave());
        printf(out, "\tNRST = %ld\n\tNPRINT = %ld\n\tNFMC = %ld\n\tCUTOFF = %lf\n\n",
            deck.nrst(), deck.nprint(), deck.nfmc(), deck.cutoff());
    }

    /**
     * Both programs' run summary, from TEMPERATURE to FREQUENCY TO WRITE RST FILE.
     *
     * @param out    the stream.
     * @param deck   the deck.
     * @param system the run's constants.
     * @param procs  the processor count in use.
     */
    protected static void printRun(
        final PrintStream out, final WaterParameters deck, final WaterSystem system, final int procs)
    {
        printf(out, "\nTEMPERATURE                = %8.2f K\n", TEMP);
        printf(out, "DENSITY                    = %8.5f G/C.C.\n", RHO);
        printf(out, "NUMBER OF MOLECULES        = %8ld\n", deck.nmol());
        printf(out, "NUMBER OF PROCESSORS       = %8ld\n", procs);
        printf(out, "TIME STEP                  = %8.2e SEC\n", system.tstep());
        printf(out, "ORDER USED TO SOLVE F=MA   = %8ld \n", deck.norder());
        printf(out, "NO. OF TIME STEPS          = %8ld \n", deck.nstep());
        printf(out, "FREQUENCY OF DATA SAVING   = %8ld \n", deck.nsave());
        printf(out, "FREQUENCY TO WRITE RST FILE= %8ld \n", deck.nrst());
    }

    /**
     * The cutoff line.
     *
     * @param out    the stream.
     * @param system the run's constants.
     */
    protected static void printCutoff(final PrintStream out, final WaterSystem system)
    {
        printf(out, "SPHERICAL CUTOFF RADIUS    = %8.4f ANGSTROM\n", system.cutoff());
    }

    /**
     * The lattice lines of {@code INITIA} up to and including WSIN, with the program's extra lines after CUTOFF.
     *
     * @param out     the stream.
     * @param lattice the lattice.
     * @param system  the run's constants.
     * @param extra   lines the program prints between CUTOFF and XS, already formatted (may be empty).
     */
    protected static void printLattice(
        final PrintStream out, final Lattice lattice, final WaterSystem system, final String extra)
    {
        printf(out, "\nNS = %.16f\n", lattice.ns());
        printf(out, "BOXL = %10f\n", system.boxl());
        printf(out, "CUTOFF = %10f\n", system.cutoff());
        out.print(extra);
        printf(out, "XS = %10f\n", lattice.xs());
        printf(out, "ZERO = %g\n", lattice.zero());
        printf(out, "WCOS = %f\n", lattice.wcos());
        printf(out, "WSIN = %f\n", lattice.wsin());
        out.print("***** NEW RUN STARTING FROM REGULAR LATTICE *****\n");
    }

    /**
     * What member 0 does between its {@code INITIA} and the workers' start: clears the timers, sets the process
     * counter to 1, prints the save line and reads the start clock.
     *
     * @param out  the stream.
     * @param gl   the shared {@link GlobalLayout} block.
     * @param deck the deck.
     */
    protected static void startClock(final PrintStream out, final DoubleArray gl, final WaterParameters deck)
    {
        gl.set(GlobalLayout.TRACKTIME, 0.0);
        gl.set(GlobalLayout.INTRATIME, 0.0);
        gl.set(GlobalLayout.INTERTIME, 0.0);
        gl.set(GlobalLayout.INDEX, 1.0);
        if (deck.nsave() > 0)
        {
            printf(out, "COLLECTING X AND V DATA AT EVERY %4ld TIME STEPS \n", deck.nsave());
        }
        gl.set(GlobalLayout.COMPUTESTART, MolecularDynamics.clock());
    }

    /**
     * The process-id hand-out of {@code WorkStart}: the counter incremented under its lock. The port takes ids from
     * the team; the increment is kept for the C program's lock and shared-memory traffic.
     *
     * @param team      this member.
     * @param gl        the shared {@link GlobalLayout} block.
     * @param indexLock the lock id of IndexLock.
     */
    protected static void countProcess(final Team team, final DoubleArray gl, final int indexLock)
    {
        team.lock(indexLock);
        try
        {
            gl.set(GlobalLayout.INDEX, gl.get(GlobalLayout.INDEX) + 1.0);
        }
        finally
        {
            team.unlock(indexLock);
        }
    }

    /**
     * The lines both programs print at the end, on member 0.
     *
     * @param out the stream.
     * @param gl  the shared {@link GlobalLayout} block.
     * @param xtt the last total energy.
     */
    protected static void printEnd(final PrintStream out, final DoubleArray gl, final double xtt)
    {
        gl.set(GlobalLayout.COMPUTEEND, MolecularDynamics.clock());
        final long start = (long)gl.get(GlobalLayout.COMPUTESTART);
        final long end = (long)gl.get(GlobalLayout.COMPUTEEND);
        final long track = (long)gl.get(GlobalLayout.TRACKTIME);
        final long intra = (long)gl.get(GlobalLayout.INTRATIME);
        final long inter = (long)gl.get(GlobalLayout.INTERTIME);
        printf(out, "COMPUTESTART (after initialization) = %lu\n", start);
        printf(out, "COMPUTEEND = %lu\n", end);
        printf(out, "COMPUTETIME (after initialization) = %lu\n", end - start);
        printf(out, "Measured Time (2nd timestep onward) = %lu\n", track);
        printf(out, "Intramolecular time only (2nd timestep onward) = %lu\n", intra);
        printf(out, "Intermolecular time only (2nd timestep onward) = %lu\n", inter);
        printf(out, "Other time (2nd timestep onward) = %lu\n", track - intra - inter);
        printf(out, "\nExited Happily with XTT = %g (note: XTT value is garbage if NPRINT > NSTEP)\n", xtt);
        out.flush();
    }
}
