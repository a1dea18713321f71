package org.viadsm.examples.water;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.viadsm.examples.runtime.InputFiles;

/**
 * The ten parameters the WATER programs read from their input deck, in the C program's order:
 * {@code TSTEP NMOL NSTEP NORDER NSAVE NRST NPRINT NFMC NumProcs CUTOFF}, read with the C program's
 * {@code scanf("%lf%ld%ld%ld%ld%ld%ld%ld%ld%lf")}: white space (line breaks included) separates the fields and
 * anything after the tenth is ignored. Where the C program prints a warning and runs on with undefined values
 * (fewer than ten fields, a malformed field) this class throws, naming the source and the line.
 * <p>
 * Instances are immutable.
 */
public final class WaterParameters
{
    private static final Object STDIN_LOCK = new Object();
    private static InputStream cachedStdin;
    private static String cachedStdinText;

    private final double tstep;
    private final long nmol;
    private final long nstep;
    private final long norder;
    private final long nsave;
    private final long nrst;
    private final long nprint;
    private final long nfmc;
    private final long numProcs;
    private final double cutoff;

    private WaterParameters(final CScanner in)
    {
        tstep = in.scanDouble("TSTEP");
        nmol = in.scanLong("NMOL");
        nstep = in.scanLong("NSTEP");
        norder = in.scanLong("NORDER");
        nsave = in.scanLong("NSAVE");
        nrst = in.scanLong("NRST");
        nprint = in.scanLong("NPRINT");
        nfmc = in.scanLong("NFMC");
        numProcs = in.scanLong("NumProcs");
        cutoff = in.scanDouble("CUTOFF");
    }

    /**
     * Parses an input deck.
     *
     * @param text   the deck.
     * @param source where it came from, for error messages (a file name).
     * @return the parameters.
     * @throws IllegalArgumentException naming the source, line and field if a field is missing or malformed.
     */
    public static WaterParameters parse(final String text, final String source)
    {
        return new WaterParameters(new CScanner(text, source));
    }

    /**
     * Reads and parses an input deck file.
     *
     * @param file the file.
     * @return the parameters.
     * @throws IllegalArgumentException naming the file if it cannot be read or does not parse.
     */
    public static WaterParameters read(final Path file)
    {
        final String text;
        try
        {
            text = Files.readString(file, StandardCharsets.ISO_8859_1);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read parameter file " + file + ": " + InputFiles.problem(ex),
                ex);
        }
        return parse(text, "parameter file " + file);
    }

    /**
     * Reads and parses the deck on standard input, as the C program does. Standard input is read once per
     * {@link System#in} stream and kept, so every team member in this JVM sees the same deck.
     *
     * @return the parameters.
     * @throws IllegalArgumentException if the deck does not parse.
     * @throws UncheckedIOException     if standard input cannot be read.
     */
    public static WaterParameters readStandardInput()
    {
        final String text;
        synchronized (STDIN_LOCK)
        {
            final InputStream in = System.in;
            if (in != cachedStdin)
            {
                try
                {
                    cachedStdinText = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException("cannot read the parameters from standard input", ex);
                }
                cachedStdin = in;
            }
            text = cachedStdinText;
        }
        return parse(text, "standard input");
    }

    /**
     * TSTEP: the time between steps, in seconds (1.5e-16 in the SPLASH decks).
     *
     * @return the time step.
     */
    public double tstep()
    {
        return tstep;
    }

    /**
     * NMOL: number of molecules; the lattice initialization needs a cube (64, 216, 512, ...).
     *
     * @return the molecule count.
     */
    public long nmol()
    {
        return nmol;
    }

    /**
     * NSTEP: number of time steps.
     *
     * @return the step count.
     */
    public long nstep()
    {
        return nstep;
    }

    /**
     * NORDER: order of the predictor-corrector (6 in the SPLASH decks).
     *
     * @return the order.
     */
    public long norder()
    {
        return norder;
    }

    /**
     * NSAVE: when positive, the potential energy is also computed every NSAVE steps.
     *
     * @return the save interval.
     */
    public long nsave()
    {
        return nsave;
    }

    /**
     * NRST: printed only.
     *
     * @return the restart-file interval.
     */
    public long nrst()
    {
        return nrst;
    }

    /**
     * NPRINT: the energies are computed and printed every NPRINT steps.
     *
     * @return the print interval.
     */
    public long nprint()
    {
        return nprint;
    }

    /**
     * NFMC: printed only.
     *
     * @return the historical NFMC field.
     */
    public long nfmc()
    {
        return nfmc;
    }

    /**
     * NumProcs as the deck gives it; the ports run on the team size instead.
     *
     * @return the processor count of the deck.
     */
    public long numProcs()
    {
        return numProcs;
    }

    /**
     * CUTOFF: the cutoff radius in Angstrom, or 0 to let the program choose half the box (at most 11).
     *
     * @return the cutoff as read.
     */
    public double cutoff()
    {
        return cutoff;
    }
}
