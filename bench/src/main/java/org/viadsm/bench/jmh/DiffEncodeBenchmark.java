package org.viadsm.bench.jmh;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.viadsm.consistency.diff.DiffEncoder;
import org.viadsm.consistency.diff.DiffRuns;

/**
 * {@link DiffEncoder#encode} of a 4 KiB page of doubles against its twin, with 1, 16 or 256 changed words spread
 * evenly over the page. Baselines: a plain loop comparing two {@code byte[]} pages byte by byte and counting
 * differences, and {@link Arrays#mismatch(byte[], int, int, byte[], int, int)} scanning for each difference (the
 * JDK's vectorised compare, the floor for finding changes).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED"})
public class DiffEncodeBenchmark
{
    private static final int PAGE = 4096;

    /** Changed 8-byte words in the page. */
    @Param({"1", "16", "256"})
    public int changedWords;

    private final byte[] pageBytes = new byte[PAGE];
    private final byte[] twinBytes = new byte[PAGE];
    private final UnsafeBuffer page = new UnsafeBuffer(new byte[PAGE]);
    private final UnsafeBuffer twin = new UnsafeBuffer(new byte[PAGE]);
    private final DiffRuns runs = new DiffRuns();

    /**
     * Creates the benchmark state; JMH sets it up.
     */
    public DiffEncodeBenchmark()
    {
    }

    /**
     * Fills page and twin alike, then changes the words.
     */
    @Setup
    public void setUp()
    {
        for (int i = 0; i < PAGE / Long.BYTES; i++)
        {
            twin.putDouble(i * Long.BYTES, i * 0.5);
        }
        page.putBytes(0, twin, 0, PAGE);
        final int stride = PAGE / Long.BYTES / changedWords;
        for (int w = 0; w < changedWords; w++)
        {
            page.putDouble(w * stride * Long.BYTES, -1.0 - w);
        }
        page.getBytes(0, pageBytes);
        twin.getBytes(0, twinBytes);
    }

    /**
     * The encoder.
     *
     * @return the run count.
     */
    @Benchmark
    public int encode()
    {
        return DiffEncoder.encode(page, 0, twin, 0, PAGE, Long.BYTES, runs);
    }

    /**
     * Baseline: compare byte by byte.
     *
     * @return differing bytes.
     */
    @Benchmark
    public int byteCompareLoop()
    {
        final byte[] a = pageBytes;
        final byte[] b = twinBytes;
        int differing = 0;
        for (int i = 0; i < PAGE; i++)
        {
            if (a[i] != b[i])
            {
                differing++;
            }
        }
        return differing;
    }

    /**
     * Floor: find each difference with the JDK's vectorised mismatch.
     *
     * @return differences found.
     */
    @Benchmark
    public int mismatchScan()
    {
        int found = 0;
        int from = 0;
        while (from < PAGE)
        {
            final int at = Arrays.mismatch(pageBytes, from, PAGE, twinBytes, from, PAGE);
            if (at < 0)
            {
                break;
            }
            found++;
            from += at + 1;
        }
        return found;
    }
}
