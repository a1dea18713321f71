package org.viadsm.examples.water;

import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import org.viadsm.examples.runtime.App;
import org.viadsm.examples.waternsq.WaterNsquared;
import org.viadsm.examples.waterspatial.WaterSpatial;

/**
 * The two WATER programs with what the C programs print on the 64-molecule deck (Splash-3 WATER-NSQUARED, and
 * WATER-SPATIAL with its lattice coordinates declared double, as in SPLASH-2; gcc -O2, run on the same deck with
 * the port's generated velocities written as their random.in), and their synchronization counts.
 */
public enum WaterProgram
{
    NSQUARED(WaterNsquared::new, Nsquared.OUTPUT_64_P1, Nsquared.ENERGIES_64,
        members -> "Using " + members + " procs on 6 steps of 64 mols\n", new long[] {484, 961, 1474}),
    SPATIAL(WaterSpatial::new, Spatial.OUTPUT_64_P1, Spatial.ENERGIES_64,
        members -> "8 boxes with " + members + " processors\n", new long[] {39, 75, 147});

    private final Supplier<App> factory;
    private final String output64OnOne;
    private final List<String> energies64;
    private final IntFunction<String> membersLine;
    private final long[] locks64;

    WaterProgram(final Supplier<App> factory, final String output64OnOne, final List<String> energies64,
        final IntFunction<String> membersLine, final long[] locks64)
    {
        this.factory = factory;
        this.output64OnOne = output64OnOne;
        this.energies64 = energies64;
        this.membersLine = membersLine;
        this.locks64 = locks64;
    }

    /** The factory of instances. */
    public Supplier<App> factory()
    {
        return factory;
    }

    /** What the C program prints on one processor for the 64-molecule deck, its clock lines left out. */
    public String output64OnOne()
    {
        return output64OnOne;
    }

    /** The energy lines of the 64-molecule deck, the same on 1, 2 and 4 processors. */
    public List<String> energies64()
    {
        return energies64;
    }

    /** A line the program prints when it runs on {@code members} members. */
    public String membersLine(final int members)
    {
        return membersLine.apply(members);
    }

    /**
     * The locks taken over all processors on the 64-molecule deck, counted in the C program (its LOCK and ALOCK
     * macros instrumented), on 1, 2 or 4 processors.
     */
    public long locks64(final int members)
    {
        return locks64[Integer.numberOfTrailingZeros(members)];
    }

    private static final class Nsquared
    {
        static final String OUTPUT_64_P1 =
            "Using 1 procs on 6 steps of 64 mols\n" +
            "Other parameters:\n" +
            "\tTSTEP = 1.50e-16\n" +
            "\tNORDER = 6\n" +
            "\tNSAVE = -1\n" +
            "\tNRST = 3000\n" +
            "\tNPRINT = 2\n" +
            "\tNFMC = 0\n" +
            "\tCUTOFF = 0.000000\n" +
            "\n" +
            "\n" +
            "TEMPERATURE                =   298.00 K\n" +
            "DENSITY                    =  0.99800 G/C.C.\n" +
            "NUMBER OF MOLECULES        =       64\n" +
            "NUMBER OF PROCESSORS       =        1\n" +
            "TIME STEP                  = 1.50e-01 SEC\n" +
            "ORDER USED TO SOLVE F=MA   =        6 \n" +
            "NO. OF TIME STEPS          =        6 \n" +
            "FREQUENCY OF DATA SAVING   =       -1 \n" +
            "FREQUENCY TO WRITE RST FILE=     3000 \n" +
            "SPHERICAL CUTOFF RADIUS    =   6.2128 ANGSTROM\n" +
            "\n" +
            "NS = 3.9999899999999995\n" +
            "BOXL =  12.425505\n" +
            "CUTOFF =   6.212752\n" +
            "XS =   3.106384\n" +
            "ZERO = 1.55319\n" +
            "WCOS = 0.585882\n" +
            "WSIN = 0.756950\n" +
            "***** NEW RUN STARTING FROM REGULAR LATTICE *****\n" +
            "         2        1.52756      0.02153     10.63688                      -2.16186\n" +
            "           10.024        301.37710        -19.27236\n" +
            "         4        1.62484      0.08681     10.50765                      -2.19451\n" +
            "           10.025        309.30147        -19.76767\n" +
            "         6        1.77748      0.19920     10.24173                      -2.19357\n" +
            "           10.025        321.18952        -20.52293\n" +
            "\n" +
            "Exited Happily with XTT = 10.0248 (note: XTT value is garbage if NPRINT > NSTEP)\n";

        static final List<String> ENERGIES_64 = List.of(
            "         2        1.52756      0.02153     10.63688                      -2.16186",
            "           10.024        301.37710        -19.27236",
            "         4        1.62484      0.08681     10.50765                      -2.19451",
            "           10.025        309.30147        -19.76767",
            "         6        1.77748      0.19920     10.24173                      -2.19357",
            "           10.025        321.18952        -20.52293");
    }

    private static final class Spatial
    {
        static final String OUTPUT_64_P1 =
            "Using 1 procs on 6 steps of 64 mols\n" +
            "Other parameters:\n" +
            "\tTSTEP = 1.50e-16\n" +
            "\tNORDER = 6\n" +
            "\tNSAVE = -1\n" +
            "\tNRST = 3000\n" +
            "\tNPRINT = 2\n" +
            "\tNFMC = 0\n" +
            "\tCUTOFF = 0.000000\n" +
            "\n" +
            "8 boxes with 1 processors\n" +
            "\n" +
            "\n" +
            "TEMPERATURE                =   298.00 K\n" +
            "DENSITY                    =  0.99800 G/C.C.\n" +
            "NUMBER OF MOLECULES        =       64\n" +
            "NUMBER OF PROCESSORS       =        1\n" +
            "TIME STEP                  = 1.50e-01 SEC\n" +
            "ORDER USED TO SOLVE F=MA   =        6 \n" +
            "NO. OF TIME STEPS          =        6 \n" +
            "FREQUENCY OF DATA SAVING   =       -1 \n" +
            "FREQUENCY TO WRITE RST FILE=     3000 \n" +
            "xprocs = 1\typrocs = 1\tzprocs = 1\n" +
            "x_inc = 2\t y_inc = 2\t z_inc = 2\n" +
            "x_left = 0\t y_left = 0\t z_left = 0\n" +
            "SPHERICAL CUTOFF RADIUS    =   6.2128 ANGSTROM\n" +
            "\n" +
            "NS = 3.9999999999999893\n" +
            "BOXL =  12.425505\n" +
            "CUTOFF =   6.212752\n" +
            "BOX_LENGTH =   6.212752\n" +
            "BOX_PER_SIDE = 2\n" +
            "XS =   3.106376\n" +
            "ZERO = 1.55319\n" +
            "WCOS = 0.585882\n" +
            "WSIN = 0.756950\n" +
            "***** NEW RUN STARTING FROM REGULAR LATTICE *****\n" +
            "         2        1.52756      0.02153     10.63691     -2.16188 \n" +
            "           10.024        301.37723        -19.27240\n" +
            "         4        1.62484      0.08681     10.50767     -2.19454 \n" +
            "           10.025        309.30167        -19.76770\n" +
            "         6        1.77748      0.19920     10.24175     -2.19360 \n" +
            "           10.025        321.18979        -20.52297\n" +
            "\n" +
            "Exited Happily with XTT = 10.0248 (note: XTT value is garbage if NPRINT > NSTEP)\n";

        static final List<String> ENERGIES_64 = List.of(
            "         2        1.52756      0.02153     10.63691     -2.16188 ",
            "           10.024        301.37723        -19.27240",
            "         4        1.62484      0.08681     10.50767     -2.19454 ",
            "           10.025        309.30167        -19.76770",
            "         6        1.77748      0.19920     10.24175     -2.19360 ",
            "           10.025        321.18979        -20.52297");
    }
}
