package org.viadsm.examples.barnes;

/**
 * The C's {@code struct GlobalMemory} (one shared record, allocated by the master) as two small shared arrays, and
 * the lock ids the program uses.
 * <pre>
 * global (DoubleArray), LENGTH = 41 doubles
 *  +------+---------+----------+----------+-------------+---------+---------+--------+--------+-------+
 *  | mtot | etot[3] | keten[9] | peten[9] | cmphase[2*3]| amvec[3]| rmin[3] | min[3] | max[3] | rsize |
 *  +------+---------+----------+----------+-------------+---------+---------+--------+--------+-------+
 * global.counts (LongArray), COUNTS_LENGTH = 7 longs
 *  +--------+---------+---------+---------+------------+----------------+-----------------------+
 *  | G_root | n2bcalc | nbccalc | selfint | body count | body index sum | body index square sum |
 *  +--------+---------+---------+---------+------------+----------------+-----------------------+
 * </pre>
 * The last three counts are the port's: the self-check's proof that every body was in exactly one processor's share.
 * The C's barriers, locks and timers are not memory here. Locks: {@code CountLock} is {@link #COUNT_LOCK},
 * {@code io_lock} {@link #IO_LOCK}, and the array {@code CellLock->CL[MAXLOCK]} the {@link #MAXLOCK} ids from
 * {@link #CELL_LOCK_BASE}, as {@link CellLocks} assigns them to cells and leaves.
 */
final class GlobalLayout
{
    static final int MTOT_OFFSET = 0;
    static final int ETOT_OFFSET = 1;
    static final int KETEN_OFFSET = 4;
    static final int PETEN_OFFSET = 13;
    static final int CMPHASE_OFFSET = 22;
    static final int AMVEC_OFFSET = 28;
    static final int RMIN_OFFSET = 31;
    static final int MIN_OFFSET = 34;
    static final int MAX_OFFSET = 37;
    static final int RSIZE_OFFSET = 40;
    static final int LENGTH = 41;

    static final int G_ROOT_OFFSET = 0;
    static final int N2BCALC_OFFSET = 1;
    static final int NBCCALC_OFFSET = 2;
    static final int SELFINT_OFFSET = 3;
    static final int BODY_COUNT_OFFSET = 4;
    static final int BODY_SUM_OFFSET = 5;
    static final int BODY_SQUARE_SUM_OFFSET = 6;
    static final int COUNTS_LENGTH = 7;

    static final int COUNT_LOCK = 0;
    static final int IO_LOCK = 1;
    static final int CELL_LOCK_BASE = 2;
    static final int MAXLOCK = 2048;

    private GlobalLayout()
    {
    }
}
