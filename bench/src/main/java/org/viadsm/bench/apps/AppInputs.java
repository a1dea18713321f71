package org.viadsm.bench.apps;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The inputs of {@code bench apps}: a quick set (each application a fraction of a second to a few seconds
 * sequentially here) and, with {@code --full}, the SPLASH-2 default inputs (FFT 64K points, LU 512x512 with 16x16
 * blocks, RADIX 1M keys radix 1024, OCEAN 258x258, WATER 512 molecules, BARNES 16K bodies) and the TreadMarks
 * classics' defaults. WATER and BARNES take input decks, written into a directory.
 */
final class AppInputs
{
    private static final Map<String, String> QUICK = Map.of(
        "fft", "-m14 -t",
        "lu", "-n256 -b16 -t",
        "radix", "-n262144 -r1024 -t",
        "ocean", "-n130 -o",
        "water-nsquared", "@water:216",
        "water-spatial", "@water:216",
        "sor", "-m1000 -n500 -i20 -t",
        "barnes", "@barnes:4096",
        "tsp", "-n16 -s1");
    private static final Map<String, String> FULL = Map.of(
        "fft", "-m16 -t",
        "lu", "-n512 -b16 -t",
        "radix", "-n1048576 -r1024 -t",
        "ocean", "-n258 -o",
        "water-nsquared", "@water:512",
        "water-spatial", "@water:512",
        "sor", "-m2000 -n1000 -i50 -t",
        "barnes", "@barnes:16384",
        "tsp", "-n19 -s1");

    private final Path dir;
    private final boolean full;
    private final Map<String, String> overrides;

    /**
     * Inputs.
     *
     * @param dir       where decks are written.
     * @param full      the SPLASH defaults rather than the quick set.
     * @param overrides arguments given instead, by application (split at spaces).
     */
    AppInputs(final Path dir, final boolean full, final Map<String, String> overrides)
    {
        this.dir = dir;
        this.full = full;
        this.overrides = overrides;
    }

    /**
     * The arguments of an application's run.
     *
     * @param app the application's name.
     * @return its arguments; a deck is written on first use.
     * @throws IllegalArgumentException if the suite has no input for it.
     */
    List<String> args(final String app)
    {
        final String spec = spec(app);
        if (null == spec)
        {
            throw new IllegalArgumentException("no benchmark input for application '" + app + "'");
        }
        if (spec.startsWith("@water:"))
        {
            // TSTEP NMOL NSTEP NORDER NSAVE NRST NPRINT NFMC NumProcs CUTOFF, as SPLASH-2's input file
            return List.of(deck("water-" + spec.substring(7) + ".deck",
                "1.5e-16 " + spec.substring(7) + " 3 6 -1 3000 3 0 1 6.212752\n").toString());
        }
        if (spec.startsWith("@barnes:"))
        {
            // the C program's 12 lines: header, nbody, seed, outfile, dtime, eps, tol, fcells, fleaves, tstop,
            // dtout, NPROC (4 steps, as the SPLASH input)
            return List.of(deck("barnes-" + spec.substring(8) + ".in", String.join("\n", "", spec.substring(8),
                "123", "", "0.025", "0.05", "1.0", "2.0", "5.0", "0.075", "0.25", "1") + "\n").toString());
        }
        return List.of(spec.split(" "));
    }

    /**
     * How the inputs are shown: the arguments, or what the deck holds.
     *
     * @param app the application.
     * @return e.g. {@code -m14 -t} or {@code 216 molecules}.
     */
    String describe(final String app)
    {
        final String spec = spec(app);
        if (null == spec)
        {
            return "?";
        }
        if (spec.startsWith("@water:"))
        {
            return spec.substring(7) + " molecules, 3 steps";
        }
        if (spec.startsWith("@barnes:"))
        {
            return spec.substring(8) + " bodies, 4 steps";
        }
        return spec;
    }

    private String spec(final String app)
    {
        final String override = overrides.get(app);
        return null != override ? override.trim() : (full ? FULL : QUICK).get(app);
    }

    private Path deck(final String name, final String text)
    {
        final Path file = dir.resolve(name);
        try
        {
            if (!Files.exists(file))
            {
                Files.writeString(file, text, StandardCharsets.US_ASCII);
            }
            return file;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }
}
