package org.viadsm.bench.dsm;

import org.HdrHistogram.Histogram;
import org.viadsm.bench.BenchCase;
import org.viadsm.dsm.SharedDoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;

/**
 * {@code dsm.sweep_*}: one node alone, so every page of its {@code SharedDoubleArray} is at home and, after the
 * first pass, valid and writable; each sample is one sweep over the array, the figure ns per element. The
 * baseline is the same loop over a plain {@code double[]}: element by element as a user writes it
 * ({@code sum += a.get(i)}, {@code a.set(i, i)}). The view rows run the same loops over a view of the whole array,
 * made (re-wrapped) at the start of each sweep as a kernel makes it after a synchronization. The bulk rows move a
 * page-sized chunk at a time through a reused {@code double[]} ({@code get(from, dst, 0, len)} then a sum; fill
 * then {@code set(from, src, 0, len)}), against the same plain element loop. Both arrays are first written element
 * by element, as a program's first loop would, so the fault branch of {@code set} shows in the JIT's profile.
 */
final class SweepCase extends NodeCase
{
    /** The loops. */
    enum Kind
    {
        READ("dsm.sweep_read", "sum += a[i] over a double[] (one chain of additions)", "<= 1.2"),
        WRITE("dsm.sweep_write", "a[i] = i over a double[]", "<= 1.5"),
        VIEW_READ("dsm.view_sweep_read", "sum += a[i] over a double[] (one chain of additions)", "<= 1.10"),
        VIEW_WRITE("dsm.view_sweep_write", "a[i] = i over a double[]", "<= 1.10"),
        READ_BULK("dsm.sweep_read_bulk", "sum += a[i] over a double[] (the element loop)", "-"),
        WRITE_BULK("dsm.sweep_write_bulk", "a[i] = i over a double[] (the element loop)", "-");

        final String metric;
        final String baselineName;
        final String target;

        Kind(final String metric, final String baselineName, final String target)
        {
            this.metric = metric;
            this.baselineName = baselineName;
            this.target = target;
        }
    }

    private static final int CHUNK = 512;
    private static final int SWEEPS_PER_BASE = 50;

    private final Kind kind;
    private final int length;
    private final double[] chunk = new double[CHUNK];
    private double[] plain;
    private SharedDoubleArray shared;
    private DoubleReadView readView;
    private DoubleView writeView;

    SweepCase(final DsmRig rig, final Kind kind, final int length)
    {
        super(kind.metric, "ns", kind.baselineName, kind.target, rig);
        this.kind = kind;
        this.length = length;
    }

    @Override
    public int samples(final int iterations)
    {
        return Math.max(1, iterations / SWEEPS_PER_BASE);
    }

    @Override
    public void open()
    {
        shared = rig.dsm.allocDoubles("bench.sweep." + kind.name(), length);
        plain = new double[length];
        for (int i = 0; i < length; i++)
        {
            shared.set(i, i);
            plain[i] = i;
        }
    }

    @Override
    public Histogram measure(final int warmup, final int iterations)
    {
        return sweeps(warmup, iterations, true);
    }

    @Override
    public Histogram baseline(final int warmup, final int iterations)
    {
        return sweeps(warmup, iterations, false);
    }

    private Histogram sweeps(final int warmup, final int iterations, final boolean dsm)
    {
        final Histogram histogram = BenchCase.histogram();
        final int warm = warmup / SWEEPS_PER_BASE;
        final int samples = samples(iterations);
        final long deadlineNs = System.nanoTime() + budgetNs();
        for (int i = 0; i < warm + samples; i++)
        {
            final long startBytes = BenchCase.allocatedBytes();
            final long startNs = System.nanoTime();
            sweep(dsm);
            final long endNs = System.nanoTime();
            if (i >= warm)
            {
                BenchCase.countAllocation(startBytes, 1);
                BenchCase.record(histogram, endNs - startNs);
                if (endNs - deadlineNs > 0)
                {
                    break;
                }
            }
        }
        return histogram;
    }

    private void sweep(final boolean dsm)
    {
        if (!dsm)
        {
            if (Kind.READ == kind || Kind.READ_BULK == kind || Kind.VIEW_READ == kind)
            {
                sink += (long)sumPlain(plain);
            }
            else
            {
                writePlain(plain);
            }
            return;
        }
        switch (kind)
        {
            case READ:
                sink += (long)sum(shared);
                break;
            case WRITE:
                write(shared);
                break;
            case VIEW_READ:
                readView = shared.read(0, length, readView);
                sink += (long)sum(readView);
                break;
            case VIEW_WRITE:
                writeView = shared.write(0, length, writeView);
                write(writeView);
                break;
            case READ_BULK:
                sink += (long)sumBulk(shared, chunk);
                break;
            default:
                writeBulk(shared, chunk);
                break;
        }
    }

    private static double sumPlain(final double[] a)
    {
        double sum = 0;
        for (int i = 0; i < a.length; i++)
        {
            sum += a[i];
        }
        return sum;
    }

    private static void writePlain(final double[] a)
    {
        for (int i = 0; i < a.length; i++)
        {
            a[i] = i;
        }
    }

    private static double sum(final SharedDoubleArray a)
    {
        final int length = a.length();
        double sum = 0;
        for (int i = 0; i < length; i++)
        {
            sum += a.get(i);
        }
        return sum;
    }

    private static void write(final SharedDoubleArray a)
    {
        final int length = a.length();
        for (int i = 0; i < length; i++)
        {
            a.set(i, i);
        }
    }

    private static double sum(final DoubleReadView a)
    {
        final int to = a.to();
        double sum = 0;
        for (int i = a.from(); i < to; i++)
        {
            sum += a.get(i);
        }
        return sum;
    }

    private static void write(final DoubleView a)
    {
        final int to = a.to();
        for (int i = a.from(); i < to; i++)
        {
            a.set(i, i);
        }
    }

    private static double sumBulk(final SharedDoubleArray a, final double[] chunk)
    {
        final int length = a.length();
        double sum = 0;
        for (int from = 0; from < length; from += chunk.length)
        {
            final int n = Math.min(chunk.length, length - from);
            a.get(from, chunk, 0, n);
            for (int k = 0; k < n; k++)
            {
                sum += chunk[k];
            }
        }
        return sum;
    }

    private static void writeBulk(final SharedDoubleArray a, final double[] chunk)
    {
        final int length = a.length();
        for (int from = 0; from < length; from += chunk.length)
        {
            final int n = Math.min(chunk.length, length - from);
            for (int k = 0; k < n; k++)
            {
                chunk[k] = from + k;
            }
            a.set(from, chunk, 0, n);
        }
    }

    @Override
    public double figure(final double sampleNs)
    {
        return sampleNs / length;
    }

    @Override
    public String note()
    {
        return "one node process; " + length + " doubles (" + (length >> 7) + " KiB), " + CHUNK +
            "-element chunks for the bulk forms";
    }
}
