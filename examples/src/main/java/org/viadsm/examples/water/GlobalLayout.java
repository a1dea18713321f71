package org.viadsm.examples.water;

/**
 * Layout of the C programs' {@code struct GlobalMemory} (without its locks and barriers, which are team locks and
 * the team barrier) in a shared {@code DoubleArray}. The C struct's {@code long} fields (the process counter and
 * the clock readings, whole seconds) are stored as doubles, exact below 2^53, so the struct stays one block.
 * <pre>
 *   0 VIR   1..3 SUM[dir]   4 POTA   5 POTR   6 POTRF   7 Index
 *   8 computestart   9 computeend   10 trackstart   11 trackend   12 tracktime
 *   13 intrastart   14 intraend   15 intratime   16 interstart   17 interend   18 intertime
 * </pre>
 */
public final class GlobalLayout
{
    /**
     * The virial sum.
     */
    public static final int VIR = 0;

    /**
     * The kinetic-energy sums, one per direction.
     */
    public static final int SUM = 1;

    /**
     * Intramolecular potential energy sum.
     */
    public static final int POTA = 4;

    /**
     * Intermolecular potential energy sum.
     */
    public static final int POTR = 5;

    /**
     * Reaction-field energy sum.
     */
    public static final int POTRF = 6;

    /**
     * The counter that hands out process ids.
     */
    public static final int INDEX = 7;

    /**
     * Clock reading before the workers start.
     */
    public static final int COMPUTESTART = 8;

    /**
     * Clock reading after the workers end.
     */
    public static final int COMPUTEEND = 9;

    /**
     * Start of a measured time step.
     */
    public static final int TRACKSTART = 10;

    /**
     * End of a measured time step.
     */
    public static final int TRACKEND = 11;

    /**
     * Total measured time, from the second step on.
     */
    public static final int TRACKTIME = 12;

    /**
     * Start of an intramolecular phase.
     */
    public static final int INTRASTART = 13;

    /**
     * End of an intramolecular phase.
     */
    public static final int INTRAEND = 14;

    /**
     * Total intramolecular time.
     */
    public static final int INTRATIME = 15;

    /**
     * Start of an intermolecular phase.
     */
    public static final int INTERSTART = 16;

    /**
     * End of an intermolecular phase.
     */
    public static final int INTEREND = 17;

    /**
     * Total intermolecular time.
     */
    public static final int INTERTIME = 18;

    /**
     * Doubles in the block.
     */
    public static final int LENGTH = 19;

    private GlobalLayout()
    {
    }
}
