package org.viadsm.examples.lu;

import java.io.PrintStream;

import org.viadsm.dsm.Placement;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.Team;

/**
 * The per-processor times of the LU program ({@code Global->t_in_fac} ... {@code Global->completion}): shared
 * arrays each processor writes its own entry of, and the master prints.
 */
final class LuStats
{
    private final int processors;
    private final DoubleArray tInFac;
    private final DoubleArray tInMod;
    private final DoubleArray tInSolve;
    private final DoubleArray tInBar;
    private final DoubleArray completion;

    LuStats(final Team team, final int processors)
    {
        this.processors = processors;
        // One entry per processor, a page the master reads: at the master.
        final Placement master = Placement.onNode(0);
        this.tInFac = team.doubles("lu.t_in_fac", processors, master);
        this.tInMod = team.doubles("lu.t_in_mod", processors, master);
        this.tInSolve = team.doubles("lu.t_in_solve", processors, master);
        this.tInBar = team.doubles("lu.t_in_bar", processors, master);
        this.completion = team.doubles("lu.completion", processors, master);
    }

    void record(final int myNum, final LuKernel kernel, final long completionUs)
    {
        tInFac.set(myNum, kernel.tInFac);
        tInSolve.set(myNum, kernel.tInSolve);
        tInMod.set(myNum, kernel.tInMod);
        tInBar.set(myNum, kernel.tInBar);
        completion.set(myNum, completionUs);
    }

    /**
     * Prints the {@code PROCESS STATISTICS} section: processor 0, and with {@code dostats} every processor and the
     * average, minimum and maximum of each column.
     */
    void print(final PrintStream out, final boolean dostats)
    {
        final DoubleArray[] columns = {completion, tInFac, tInSolve, tInMod, tInBar};
        final double[] min = new double[columns.length];
        final double[] max = new double[columns.length];
        final double[] avg = new double[columns.length];
        if (dostats)
        {
            for (int c = 0; c < columns.length; c++)
            {
                min[c] = columns[c].get(0);
                max[c] = min[c];
                avg[c] = min[c];
                for (int i = 1; i < processors; i++)
                {
                    final double value = columns[c].get(i);
                    if (value > max[c])
                    {
                        max[c] = value;
                    }
                    if (value < min[c])
                    {
                        min[c] = value;
                    }
                    avg[c] += value;
                }
                avg[c] = avg[c] / processors;
            }
        }
        out.print("                            PROCESS STATISTICS\n");
        out.print("              Total      Diagonal     Perimeter      Interior       Barrier\n");
        out.print(" Proc         Time         Time         Time           Time          Time\n");
        out.print(CFormat.format("    0    %10.0f    %10.0f    %10.0f    %10.0f    %10.0f\n",
            completion.get(0), tInFac.get(0), tInSolve.get(0), tInMod.get(0), tInBar.get(0)));
        if (dostats)
        {
            for (int i = 1; i < processors; i++)
            {
                out.print(CFormat.format("  %3ld    %10.0f    %10.0f    %10.0f    %10.0f    %10.0f\n",
                    i, completion.get(i), tInFac.get(i), tInSolve.get(i), tInMod.get(i), tInBar.get(i)));
            }
            printRow(out, "  Avg", avg);
            printRow(out, "  Min", min);
            printRow(out, "  Max", max);
        }
    }

    private static void printRow(final PrintStream out, final String label, final double[] values)
    {
        out.print(CFormat.format("%s    %10.0f    %10.0f    %10.0f    %10.0f    %10.0f\n",
            label, values[0], values[1], values[2], values[3], values[4]));
    }
}
