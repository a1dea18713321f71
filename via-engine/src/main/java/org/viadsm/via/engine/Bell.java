package org.viadsm.via.engine;

/**
 * A wake-up bell: what a thread of a NIC sleeps on when completers in other processes must be able to wake it (they
 * cannot unpark it), the eventcount of {@link WaitSlot}. (Not VIA's doorbell, by which a consumer tells the NIC it
 * posted a descriptor: a post here executes at once.) The waiting thread announces the bell's id in the sleeper word of
 * the queue it waits on, checks the queue again and blocks in {@link #await(long)}; a completer in another process,
 * after publishing a completion, takes the word and rings the bell the id names (the provider's
 * {@link PeerNic#wakeReceivers(int, int)}); a thread of the NIC's own process calls {@link #wakeup()}.
 * <p>
 * Ringing is idempotent, and a ring that finds nobody waiting (or is lost) costs at most one spurious return from a
 * later {@link #await(long)}: waits always check their queue and loop.
 * <p>
 * <b>Note:</b> a NIC lends each bell to one waiting thread at a time ({@link NicTransport#acquireBell()});
 * {@link #wakeup()} may be called by any thread.
 */
public interface Bell
{
    /**
     * The bell's id in its NIC, what a sleeper word holds (plus 1) while a thread sleeps on it.
     *
     * @return the id, at least 0.
     */
    int id();

    /**
     * Blocks the calling thread until the bell rings, {@link #wakeup()} is called, the thread is interrupted, or
     * about {@code timeoutNs} pass; rings that came while nobody waited make it return at once.
     *
     * @param timeoutNs longest block, at least 1 ms (shorter blocks park instead).
     */
    void await(long timeoutNs);

    /**
     * Makes the thread blocked in {@link #await(long)}, or the next one to call it, return; from a thread of the
     * NIC's process.
     */
    void wakeup();
}
