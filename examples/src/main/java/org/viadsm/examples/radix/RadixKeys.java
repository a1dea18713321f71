package org.viadsm.examples.radix;

import java.io.PrintStream;

import org.viadsm.dsm.array.LongArray;
import org.viadsm.dsm.array.LongReadView;
import org.viadsm.dsm.array.LongView;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.VerificationException;

/**
 * RADIX's key generator and its checks on the sorted keys.
 * <p>
 * The generator is the C program's: r' = r * 5^13 mod 2^46 from the seed 314159265, four randoms per key, the key
 * being {@code (long)((sum of the four / 2^46) / 4 * max_key)}. The C code multiplies in doubles, splitting the
 * factors at 2^23 so that every step is exact; 64-bit integer multiplication keeps the same low 46 bits, so the
 * sequence is identical. Each processor jumps to its first key ({@code ran_num_init}), so the keys do not depend
 * on the processor count.
 */
final class RadixKeys
{
    /** {@code SEED}. */
    static final long SEED = 314159265L;
    /** {@code RATIO}: 5^13. */
    static final long RATIO = 1220703125L;
    /** {@code RADIX}: 2^46 as a double, the generator's modulus. */
    static final double MODULUS = 70368744177664.0;
    private static final long MASK_46 = (1L << 46) - 1;

    private RadixKeys()
    {
    }

    /**
     * {@code product_mod_46}: t1 * t2 mod 2^46.
     */
    static long productMod46(final long t1, final long t2)
    {
        return (t1 * t2) & MASK_46;
    }

    /**
     * {@code ran_num_init}: the k-th random after seed b for ratio t, by repeated squaring.
     */
    static long ranNumInit(final long k, final long b, final long t)
    {
        long kk = k;
        long bb = b;
        long tt = t;
        while (0 != kk)
        {
            final long j = kk >>> 1;
            if ((j << 1) != kk)
            {
                bb = productMod46(bb, tt);
            }
            tt = productMod46(tt, tt);
            kk = j;
        }
        return bb;
    }

    /**
     * {@code init}: writes keys {@code [keyStart, keyStop)} of {@code keys}.
     */
    static void init(final LongArray keyArray, final int keyStart, final int keyStop, final long maxKey)
    {
        final LongView keys = keyArray.write(keyStart, keyStop);
        long ranNum = ranNumInit(((long)keyStart << 2) + 1, SEED, RATIO);
        double sum = ranNum / MODULUS;
        final double max = maxKey;
        for (int i = keyStart; i < keyStop; i++)
        {
            ranNum = productMod46(ranNum, RATIO);
            sum = sum + ranNum / MODULUS;
            ranNum = productMod46(ranNum, RATIO);
            sum = sum + ranNum / MODULUS;
            ranNum = productMod46(ranNum, RATIO);
            sum = sum + ranNum / MODULUS;
            keys.set(i, (long)((sum / 4.0) * max));
            ranNum = productMod46(ranNum, RATIO);
            sum = ranNum / MODULUS;
        }
    }

    /**
     * {@code test_sort}: counts the keys greater than their successor and prints {@code PASSED} or {@code FAILED}.
     *
     * @throws VerificationException if any key is out of place.
     */
    static void testSort(final LongArray keyArray, final int numKeys, final PrintStream out)
    {
        final LongReadView keys = keyArray.read(0, numKeys);
        long mistakes = 0;
        int firstMistake = -1;
        out.print("\n");
        out.print("                  TESTING RESULTS\n");
        long next = keys.get(0);
        for (int i = 0; i < numKeys - 1; i++)
        {
            final long key = next;
            next = keys.get(i + 1);
            if (key > next)
            {
                if (0 == mistakes)
                {
                    firstMistake = i;
                }
                mistakes++;
            }
        }
        if (0 != mistakes)
        {
            out.print(CFormat.format("FAILED: %ld keys out of place.\n", mistakes));
            out.print("\n");
            throw new VerificationException("RADIX sort check failed: " + mistakes + " keys out of place, first " +
                "at index " + firstMistake + ": " + keys.get(firstMistake) + " > " + keys.get(firstMistake + 1));
        }
        out.print("PASSED: All keys in place.\n");
        out.print("\n");
    }

    /**
     * {@code printout}: the sorted keys as {@code "%8ld "}, five to a line.
     */
    static void printout(final LongArray keys, final int numKeys, final PrintStream out)
    {
        final StringBuilder text = new StringBuilder();
        text.append("\n");
        text.append("                 SORTED KEY VALUES\n");
        text.append(CFormat.format("%8ld ", keys.get(0)));
        for (int i = 0; i < numKeys - 1; i++)
        {
            text.append(CFormat.format("%8ld ", keys.get(i + 1)));
            if (0 == (i + 2) % 5)
            {
                text.append('\n');
            }
        }
        text.append('\n');
        out.print(text);
    }
}
