package org.viadsm.bench.jmh;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.viadsm.dsm.Dsm;
import org.viadsm.dsm.DsmContext;
import org.viadsm.dsm.SharedDoubleArray;
import org.viadsm.dsm.launch.LocalCluster;

/**
 * Sequential reads and writes of a {@link SharedDoubleArray} whose pages are all valid and writable (a one-node
 * cluster on the jvm provider, every page written once in setup), against the same loops over a plain
 * {@code double[]}. Results are per element; 64 Ki elements (512 KiB) fit in L2, so the loops measure the access
 * path, not memory. The DSM aims for shared/plain at most 1.3 for reads and 1.5 for writes.
 * <p>
 * {@code firstTouch} says how the pages became writable in setup: {@code set}, element by element as a program's
 * first loop would (the page-fault branch of {@code set} then shows in the JIT's profile), or {@code fill}, the
 * bulk call (the branch is never taken before compilation, so the JIT turns it into an uncommon trap).
 * {@code sum} is a single dependent chain of additions, bound by the add latency; {@code sum4} keeps four
 * independent sums, so the access path shows.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED"})
public class SharedArrayBenchmark
{
    private static final int LENGTH = 64 * 1024;

    /** How the pages became writable in setup: element by element ({@code set}) or in bulk ({@code fill}). */
    @Param({"set", "fill"})
    public String firstTouch;

    private Dsm dsm;
    private SharedDoubleArray shared;
    private final double[] plain = new double[LENGTH];

    /**
     * Creates the benchmark state; JMH sets it up.
     */
    public SharedArrayBenchmark()
    {
    }

    /**
     * Joins a one-node cluster, allocates the array and makes every page valid and writable.
     */
    @Setup
    public void setUp()
    {
        dsm = Dsm.join(new DsmContext().nodeId(0).addresses(LocalCluster.addresses("jvm", 1)));
        shared = dsm.allocDoubles("bench", LENGTH);
        if ("fill".equals(firstTouch))
        {
            shared.fill(0);
        }
        for (int i = 0; i < LENGTH; i++)
        {
            shared.set(i, i);
            plain[i] = i;
        }
    }

    /**
     * Leaves the cluster.
     */
    @TearDown
    public void tearDown()
    {
        dsm.close();
    }

    /**
     * Sum of the shared array.
     *
     * @return the sum.
     */
    @Benchmark
    @OperationsPerInvocation(LENGTH)
    public double sharedSum()
    {
        final SharedDoubleArray a = shared;
        double sum = 0;
        for (int i = 0; i < LENGTH; i++)
        {
            sum += a.get(i);
        }
        return sum;
    }

    /**
     * Baseline: sum of the plain array.
     *
     * @return the sum.
     */
    @Benchmark
    @OperationsPerInvocation(LENGTH)
    public double plainSum()
    {
        final double[] a = plain;
        double sum = 0;
        for (int i = 0; i < LENGTH; i++)
        {
            sum += a[i];
        }
        return sum;
    }

    /**
     * Sum of the shared array in four independent chains.
     *
     * @return the sum.
     */
    @Benchmark
    @OperationsPerInvocation(LENGTH)
    public double sharedSum4()
    {
        final SharedDoubleArray a = shared;
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        for (int i = 0; i < LENGTH; i += 4)
        {
            s0 += a.get(i);
            s1 += a.get(i + 1);
            s2 += a.get(i + 2);
            s3 += a.get(i + 3);
        }
        return s0 + s1 + s2 + s3;
    }

    /**
     * Baseline: sum of the plain array in four independent chains.
     *
     * @return the sum.
     */
    @Benchmark
    @OperationsPerInvocation(LENGTH)
    public double plainSum4()
    {
        final double[] a = plain;
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        for (int i = 0; i < LENGTH; i += 4)
        {
            s0 += a[i];
            s1 += a[i + 1];
            s2 += a[i + 2];
            s3 += a[i + 3];
        }
        return s0 + s1 + s2 + s3;
    }

    /**
     * Fill the shared array with its indices.
     */
    @Benchmark
    @OperationsPerInvocation(LENGTH)
    public void sharedWrite()
    {
        final SharedDoubleArray a = shared;
        for (int i = 0; i < LENGTH; i++)
        {
            a.set(i, i);
        }
    }

    /**
     * Baseline: fill the plain array with its indices.
     */
    @Benchmark
    @OperationsPerInvocation(LENGTH)
    public void plainWrite()
    {
        final double[] a = plain;
        for (int i = 0; i < LENGTH; i++)
        {
            a[i] = i;
        }
    }
}
