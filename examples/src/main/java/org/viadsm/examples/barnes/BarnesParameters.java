package org.viadsm.examples.barnes;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.viadsm.examples.runtime.InputFiles;

/**
 * The twelve parameters the C program reads from standard input, one a line, in this order: particle input file,
 * nbody, seed, output file, dtime, eps, tol, fcells, fleaves, tstop, dtout, NPROC. A blank line (or a missing one at
 * the end) selects the C's default ({@code defv[]}); lines after the twelfth are ignored, as the C ignores them.
 */
final class BarnesParameters
{
    static final String STDIN = "-";

    private static final int PARAMETER_COUNT = 12;
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
    private static final Pattern REAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final String[] NAMES = {
        "in", "nbody", "seed", "out", "dtime", "eps", "tol", "fcells", "fleaves", "tstop", "dtout", "NPROC"
    };
    /** The C's {@code defv[]}: what a blank line selects. */
    private static final String[] DEFAULTS = {
        "", "16384", "123", "", "0.025", "0.05", "1.0", "2.0", "0.5", "0.075", "0.25", "1"
    };
    /** The SPLASH input {@code inputs/n16384-p1}: the run without an input file. Note fleaves = 5.0. */
    private static final String[] BUILT_IN = {
        "", "16384", "123", "", "0.025", "0.05", "1.0", "2.0", "5.0", "0.075", "0.25", "1"
    };

    private static InputStream stdinSource;
    private static List<String> stdinLines;

    final String source;
    final int nbody;
    final int seed;
    final String outfile;
    final double dtime;
    final double eps;
    final double tol;
    final double fcells;
    final double fleaves;
    final double tstop;
    final double dtout;
    final int nproc;

    private BarnesParameters(final String source, final String[] values)
    {
        this.source = source;
        if (!values[0].isEmpty())
        {
            throw new IllegalArgumentException(source + ":1: particle input files are not supported (the C program " +
                "regenerates a Plummer model anyway); leave the first line blank: '" + values[0] + "'");
        }
        nbody = integer(values, 1, 1);
        seed = integer(values, 2, Integer.MIN_VALUE);
        outfile = values[3];
        dtime = real(values, 4, true);
        eps = real(values, 5, false);
        tol = real(values, 6, false);
        fcells = real(values, 7, true);
        fleaves = real(values, 8, true);
        tstop = real(values, 9, false);
        dtout = real(values, 10, false);
        nproc = integer(values, 11, 1);
    }

    /**
     * The parameters of the SPLASH input {@code n16384-p1}.
     */
    static BarnesParameters builtIn()
    {
        return new BarnesParameters("built-in n16384 input", BUILT_IN.clone());
    }

    /**
     * Reads the parameters from a file, or from standard input when {@code path} is {@link #STDIN}.
     *
     * @throws IllegalArgumentException naming the file (and line) if it cannot be read or a line is malformed.
     */
    static BarnesParameters read(final String path)
    {
        if (STDIN.equals(path))
        {
            return parse(standardInput(), "<stdin>");
        }
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(Path.of(path), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read BARNES input file " + path + ": " + InputFiles.problem(ex),
                ex);
        }
        return parse(lines, path);
    }

    static BarnesParameters parse(final List<String> lines, final String source)
    {
        final String[] values = new String[PARAMETER_COUNT];
        for (int i = 0; i < PARAMETER_COUNT; i++)
        {
            final String line = i < lines.size() ? lines.get(i).strip() : "";
            values[i] = line.isEmpty() ? DEFAULTS[i] : line;
        }
        return new BarnesParameters(source, values);
    }

    /**
     * Members of a threaded team each parse the input: standard input is read once per {@code System.in} and kept.
     */
    private static synchronized List<String> standardInput()
    {
        final InputStream in = System.in;
        if (in != stdinSource)
        {
            final List<String> lines = new ArrayList<>();
            try
            {
                final BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                for (String line = reader.readLine(); null != line; line = reader.readLine())
                {
                    lines.add(line);
                }
            }
            catch (final IOException ex)
            {
                throw new IllegalArgumentException("cannot read BARNES input from standard input: " + ex, ex);
            }
            stdinLines = lines;
            stdinSource = in;
        }
        return stdinLines;
    }

    private int integer(final String[] values, final int index, final int min)
    {
        final String text = values[index];
        if (!INTEGER.matcher(text).matches())
        {
            throw malformed(index, "an integer", text);
        }
        final long value;
        try
        {
            value = Long.parseLong(text);
        }
        catch (final NumberFormatException ex)
        {
            throw malformed(index, "an integer", text);
        }
        if (value < min || value > Integer.MAX_VALUE)
        {
            throw malformed(index, "an integer in [" + min + ", " + Integer.MAX_VALUE + "]", text);
        }
        return (int)value;
    }

    private double real(final String[] values, final int index, final boolean positive)
    {
        final String text = values[index];
        if (!REAL.matcher(text).matches())
        {
            throw malformed(index, "a number", text);
        }
        final double value = Double.parseDouble(text);
        if (Double.isInfinite(value) || value < 0.0 || (positive && 0.0 == value))
        {
            throw malformed(index, positive ? "a positive number" : "a non-negative number", text);
        }
        return value;
    }

    private IllegalArgumentException malformed(final int index, final String what, final String text)
    {
        return new IllegalArgumentException(
            source + ":" + (index + 1) + ": " + NAMES[index] + " must be " + what + ": '" + text + "'");
    }
}
