package org.viadsm.examples.water;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.Drand48;
import org.viadsm.examples.runtime.InputFiles;

/**
 * The pseudo-random numbers the WATER programs turn into initial velocities, in the order the C programs read them
 * from {@code random.in}: one number the program discards, then for every molecule in lattice order, for every atom
 * (H1, O, H2), the x, y and z components. So a run of {@code NMOL} molecules reads {@code 1 + 9 * NMOL} numbers.
 * <p>
 * Without a file the ports use {@link #generate(int)}: standard normal deviates from {@link Drand48} seeded with
 * {@link #SEED}, by Marsaglia's polar method with {@link StrictMath#log} (the same bits on every JVM), keeping only
 * values in [-4, 4] as the README of the C programs asks of {@code random.in}. {@link #write(Path, double[])} writes
 * numbers in {@code random.in}'s layout with 18 significant digits, enough for the C program's {@code fscanf} to read
 * back exactly the same doubles.
 */
public final class Velocities
{
    /**
     * Seed of the generator: {@code srand48(SEED)}.
     */
    public static final long SEED = 1023;

    /**
     * Largest magnitude a generated value may have.
     */
    public static final double LIMIT = 4.0;

    private static final int VALUES_PER_LINE = 3;

    private Velocities()
    {
    }

    /**
     * How many numbers a run reads.
     *
     * @param nmol number of molecules.
     * @return {@code 1 + 9 * nmol}.
     */
    public static int count(final int nmol)
    {
        return 1 + 9 * nmol;
    }

    /**
     * Generates {@code count} numbers, the same on every run and platform.
     *
     * @param count how many.
     * @return the numbers.
     */
    public static double[] generate(final int count)
    {
        final Drand48 random = new Drand48(SEED);
        final double[] values = new double[count];
        int n = 0;
        while (n < count)
        {
            final double u = 2.0 * random.drand48() - 1.0;
            final double v = 2.0 * random.drand48() - 1.0;
            final double s = u * u + v * v;
            if (s >= 1.0 || 0.0 == s)
            {
                continue;
            }
            final double factor = StrictMath.sqrt(-2.0 * StrictMath.log(s) / s);
            n = keep(values, n, u * factor);
            n = keep(values, n, v * factor);
        }
        return values;
    }

    private static int keep(final double[] values, final int n, final double value)
    {
        if (n < values.length && Math.abs(value) <= LIMIT)
        {
            values[n] = value;
            return n + 1;
        }
        return n;
    }

    /**
     * Reads the first {@code count} numbers of a file, with {@code fscanf("%lf")}'s rules.
     *
     * @param file  the file, e.g. {@code random.in}.
     * @param count how many numbers to read.
     * @return the numbers.
     * @throws IllegalArgumentException naming the file (and line) if it cannot be read, holds too few numbers or a
     *                                  malformed one.
     */
    public static double[] read(final Path file, final int count)
    {
        final String text;
        try
        {
            text = Files.readString(file, StandardCharsets.ISO_8859_1);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read velocities file " + file + ": " + InputFiles.problem(ex),
                ex);
        }
        final CScanner in = new CScanner(text, "velocities file " + file);
        final double[] values = new double[count];
        for (int i = 0; i < count; i++)
        {
            values[i] = in.scanDouble("number " + (i + 1) + " of " + count);
        }
        return values;
    }

    /**
     * Writes numbers in {@code random.in}'s layout: the first alone on a line, then three to a line, each as
     * {@code 0.ddddddddddddddddddE+xx} with 18 significant digits.
     *
     * @param file   the file to create or replace.
     * @param values the numbers.
     * @throws UncheckedIOException naming the file if it cannot be written.
     */
    public static void write(final Path file, final double[] values)
    {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.US_ASCII))
        {
            for (int i = 0; i < values.length; i++)
            {
                final boolean lineStart = 0 == i || 1 == i % VALUES_PER_LINE;
                final boolean lineEnd = 0 == i || 0 == i % VALUES_PER_LINE || values.length - 1 == i;
                final String field = fortran(values[i]);
                out.write(" ".repeat((lineStart ? 26 : 27) - field.length()));
                out.write(field);
                if (lineEnd)
                {
                    out.write('\n');
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write velocities file " + file, ex);
        }
    }

    /**
     * FORTRAN {@code E26.18} style: {@code 0.} then 18 digits, then the exponent.
     *
     * @param value the number.
     * @return the text.
     */
    static String fortran(final double value)
    {
        if (0.0 == value)
        {
            return "0." + "0".repeat(18) + "e+00";
        }
        final String c = CFormat.scientific(value, 17);
        final int e = c.indexOf('e');
        final boolean negative = '-' == c.charAt(0);
        final String mantissa = c.substring(negative ? 1 : 0, e).replace(".", "");
        final int exponent = Integer.parseInt(c.substring(e + 1)) + 1;
        final String exponentText = (exponent < 0 ? "-" : "+") + (Math.abs(exponent) < 10 ? "0" : "") +
            Math.abs(exponent);
        return (negative ? "-" : "") + "0." + mantissa + "e" + exponentText;
    }
}
