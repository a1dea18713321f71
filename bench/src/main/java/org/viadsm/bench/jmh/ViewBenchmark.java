package org.viadsm.bench.jmh;

import java.util.concurrent.TimeUnit;

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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.viadsm.dsm.Dsm;
import org.viadsm.dsm.DsmContext;
import org.viadsm.dsm.SharedDoubleArray;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;
import org.viadsm.dsm.launch.LocalCluster;

/**
 * daxpy ({@code y[i] += a * x[i]}) over views of two {@link SharedDoubleArray}s whose pages are valid and writable
 * (a one-node cluster on the jvm provider), against the same loop over two {@code double[]}: the view path's cost.
 * Each invocation makes its views (re-wrapping the previous ones, as a kernel does after a synchronization) and
 * runs the loop once over {@code length} elements; the DSM aims for views/plain at most 1.15. Also measured: the
 * views of plain arrays ({@code DoubleArray.wrap}), views made fresh each time (the allocation escape analysis has
 * to remove), and element access ({@code get}/{@code set} of the shared arrays).
 * <p>
 * Run {@code viadsm bench jmh ViewBenchmark -prof gc} to see the bytes allocated per operation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED")
public class ViewBenchmark
{
    private static final double ALPHA = 0.5;

    /** Elements per array: 4 Ki (L1), 64 Ki (L2) and 1 Mi (8 MiB per array). */
    @Param({"4096", "65536", "1048576"})
    public int length;

    private Dsm dsm;
    private SharedDoubleArray sharedX;
    private SharedDoubleArray sharedY;
    private DoubleArray wrappedX;
    private DoubleArray wrappedY;
    private double[] plainX;
    private double[] plainY;
    private DoubleReadView x;
    private DoubleView y;
    private DoubleReadView wrappedViewX;
    private DoubleView wrappedViewY;

    /**
     * Creates the benchmark state; JMH sets it up.
     */
    public ViewBenchmark()
    {
    }

    /**
     * Joins a one-node cluster and fills the arrays.
     */
    @Setup
    public void setUp()
    {
        dsm = Dsm.join(new DsmContext().nodeId(0).addresses(LocalCluster.addresses("jvm", 1)));
        sharedX = dsm.allocDoubles("x", length);
        sharedY = dsm.allocDoubles("y", length);
        plainX = new double[length];
        plainY = new double[length];
        wrappedX = DoubleArray.wrap(new double[length]);
        wrappedY = DoubleArray.wrap(new double[length]);
        final DoubleView fillX = sharedX.write(0, length);
        final DoubleView fillY = sharedY.write(0, length);
        for (int i = 0; i < length; i++)
        {
            fillX.set(i, i);
            fillY.set(i, 1);
            plainX[i] = i;
            plainY[i] = 1;
            wrappedX.set(i, i);
            wrappedY.set(i, 1);
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
     * Baseline: daxpy over two {@code double[]}.
     *
     * @return one element, so the loop is not dead.
     */
    @Benchmark
    public double plain()
    {
        final double[] xs = plainX;
        final double[] ys = plainY;
        for (int i = 0; i < xs.length; i++)
        {
            ys[i] += ALPHA * xs[i];
        }
        return ys[length - 1];
    }

    /**
     * daxpy over re-wrapped views of the shared arrays.
     *
     * @return one element.
     */
    @Benchmark
    public double view()
    {
        x = sharedX.read(0, length, x);
        y = sharedY.update(0, length, y);
        daxpy(x, y);
        return y.get(length - 1);
    }

    /**
     * daxpy over views of the shared arrays made fresh each time.
     *
     * @return one element.
     */
    @Benchmark
    public double viewFresh()
    {
        final DoubleView ys = sharedY.update(0, length);
        daxpy(sharedX.read(0, length), ys);
        return ys.get(length - 1);
    }

    /**
     * daxpy over re-wrapped views of plain arrays.
     *
     * @return one element.
     */
    @Benchmark
    public double plainView()
    {
        wrappedViewX = wrappedX.read(0, length, wrappedViewX);
        wrappedViewY = wrappedY.update(0, length, wrappedViewY);
        daxpy(wrappedViewX, wrappedViewY);
        return wrappedViewY.get(length - 1);
    }

    /**
     * daxpy with element access to the shared arrays.
     *
     * @return one element.
     */
    @Benchmark
    public double element()
    {
        final SharedDoubleArray xs = sharedX;
        final SharedDoubleArray ys = sharedY;
        final int n = length;
        for (int i = 0; i < n; i++)
        {
            ys.set(i, ys.get(i) + ALPHA * xs.get(i));
        }
        return ys.get(n - 1);
    }

    private static void daxpy(final DoubleReadView xs, final DoubleView ys)
    {
        final int to = ys.to();
        for (int i = ys.from(); i < to; i++)
        {
            ys.set(i, ys.get(i) + ALPHA * xs.get(i));
        }
    }
}
