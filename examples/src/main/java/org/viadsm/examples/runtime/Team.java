package org.viadsm.examples.runtime;

import java.io.PrintStream;

import org.viadsm.dsm.Placement;
import org.viadsm.dsm.array.ByteArray;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.FloatArray;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.LongArray;

/**
 * One member of a team running an application: a Java thread over plain arrays, or a DSM node over shared arrays.
 * The SPLASH programs' ANL macros map onto it: {@code G_MALLOC} to the collective allocations, {@code BARRIER} to
 * {@link #barrier()}, {@code LOCK}/{@code UNLOCK} (and {@code ALOCK}) to {@link #lock(int)}/{@link #unlock(int)},
 * {@code SETPAUSE}/{@code WAITPAUSE}/{@code CLEARPAUSE} to the pause calls.
 * <p>
 * Allocation is collective: every member calls the allocation methods in the same order with the same names,
 * lengths and placements, and gets the same array. A placement says which member's memory holds each page (on DSM
 * nodes); a program puts each partition at the member that writes it, as the C program's partitioning does.
 * <p>
 * Memory consistency effects: writes before {@link #unlock(int)}, {@link #barrier()} or {@link #setPause(int)}
 * happen-before reads after the matching {@link #lock(int)}, the return from the barrier, or the matching
 * {@link #waitPause(int)}; data-race-free programs see sequential consistency.
 * <p>
 * <b>Note:</b> a member is used by one thread: the one that runs it.
 */
public interface Team
{
    /**
     * This member's id, from 0 (the SPLASH "master") to {@code size() - 1}.
     *
     * @return the id.
     */
    int id();

    /**
     * Number of members: the processor count of the SPLASH program.
     *
     * @return the team size.
     */
    int size();

    /**
     * Waits until every member has called it.
     */
    void barrier();

    /**
     * Acquires lock {@code lockId}; locks are numbered from 0 and need no declaration.
     *
     * @param lockId the lock.
     */
    void lock(int lockId);

    /**
     * Releases lock {@code lockId}.
     *
     * @param lockId the lock.
     * @throws IllegalMonitorStateException if this member does not hold it.
     */
    void unlock(int lockId);

    /**
     * Signals pause {@code pauseId}, a counting semaphore as Splash-3's {@code SETPAUSE} is.
     *
     * @param pauseId the pause.
     */
    void setPause(int pauseId);

    /**
     * Waits for one signal of pause {@code pauseId} and consumes it ({@code WAITPAUSE}).
     *
     * @param pauseId the pause.
     */
    void waitPause(int pauseId);

    /**
     * Clears pause {@code pauseId} ({@code CLEARPAUSE}); a no-op for semaphore pauses, kept so ports mirror the C
     * code's calls.
     *
     * @param pauseId the pause.
     */
    void clearPause(int pauseId);

    /**
     * Marks where this member's part of the program's timed phase begins: just before the program reads the clock
     * that starts its measured time (after initialization, where the C program reads it), at the same point of the
     * program on every member, so that the marking is not inside the measured time. A DSM node's statistics then
     * cover its timed phases only; nothing is sent. A no-op by default.
     */
    default void beginTimedPhase()
    {
    }

    /**
     * Marks where this member's part of the timed phase ends: just after the program reads the clock that ends its
     * measured time (where the C program reads it), so that the marking, which on a DSM node takes the statistics'
     * snapshot of the phase, is not inside the measured time. A no-op by default.
     */
    default void endTimedPhase()
    {
    }

    /**
     * Collectively allocates an array of doubles, zero-filled, with its pages' homes where {@code placement} puts
     * them (a team without homes ignores it).
     *
     * @param name      the array's name, the same on every member.
     * @param length    number of elements.
     * @param placement where the pages live: at the members that write them, as the program partitions the array.
     * @return the array every member shares.
     * @throws IllegalStateException if members disagree on the name, type, length or order.
     */
    DoubleArray doubles(String name, int length, Placement placement);

    /**
     * Collectively allocates an array of doubles, zero-filled, in contiguous blocks of pages, one per member.
     *
     * @param name   the array's name, the same on every member.
     * @param length number of elements.
     * @return the array every member shares.
     * @throws IllegalStateException if members disagree on the name, type, length or order.
     */
    default DoubleArray doubles(final String name, final int length)
    {
        return doubles(name, length, Placement.block());
    }

    /**
     * Collectively allocates an array of floats, zero-filled; see {@link #doubles(String, int, Placement)}.
     *
     * @param name      the array's name.
     * @param length    number of elements.
     * @param placement where the pages live.
     * @return the shared array.
     */
    FloatArray floats(String name, int length, Placement placement);

    /**
     * Collectively allocates an array of floats, zero-filled, in contiguous blocks of pages, one per member.
     *
     * @param name   the array's name.
     * @param length number of elements.
     * @return the shared array.
     */
    default FloatArray floats(final String name, final int length)
    {
        return floats(name, length, Placement.block());
    }

    /**
     * Collectively allocates an array of longs, zero-filled; see {@link #doubles(String, int, Placement)}.
     *
     * @param name      the array's name.
     * @param length    number of elements.
     * @param placement where the pages live.
     * @return the shared array.
     */
    LongArray longs(String name, int length, Placement placement);

    /**
     * Collectively allocates an array of longs, zero-filled, in contiguous blocks of pages, one per member.
     *
     * @param name   the array's name.
     * @param length number of elements.
     * @return the shared array.
     */
    default LongArray longs(final String name, final int length)
    {
        return longs(name, length, Placement.block());
    }

    /**
     * Collectively allocates an array of ints, zero-filled; see {@link #doubles(String, int, Placement)}.
     *
     * @param name      the array's name.
     * @param length    number of elements.
     * @param placement where the pages live.
     * @return the shared array.
     */
    IntArray ints(String name, int length, Placement placement);

    /**
     * Collectively allocates an array of ints, zero-filled, in contiguous blocks of pages, one per member.
     *
     * @param name   the array's name.
     * @param length number of elements.
     * @return the shared array.
     */
    default IntArray ints(final String name, final int length)
    {
        return ints(name, length, Placement.block());
    }

    /**
     * Collectively allocates an array of bytes, zero-filled; see {@link #doubles(String, int, Placement)}.
     *
     * @param name      the array's name.
     * @param length    number of elements.
     * @param placement where the pages live.
     * @return the shared array.
     */
    ByteArray bytes(String name, int length, Placement placement);

    /**
     * Collectively allocates an array of bytes, zero-filled, in contiguous blocks of pages, one per member.
     *
     * @param name   the array's name.
     * @param length number of elements.
     * @return the shared array.
     */
    default ByteArray bytes(final String name, final int length)
    {
        return bytes(name, length, Placement.block());
    }

    /**
     * Where the application prints: the run's output on member 0, a sink on the others.
     *
     * @return the stream.
     */
    PrintStream out();
}
