package org.viadsm.via;

/**
 * A completion queue: one place to learn of completions on the work queues of many VIs, after VIPL's
 * {@code VipCQDone} and {@code VipCQWait}.
 * <p>
 * A work queue attached to a completion queue (at {@code Nic.createVi}) adds one entry per completed descriptor.
 * The entry names the VI and queue; the consumer then takes the descriptor with that VI's {@code sendDone()} or
 * {@code recvDone()}. Entries appear in the order the descriptors completed.
 * <p>
 * <b>Note:</b> {@link #done(Completion)} and {@link #await(long, Completion)} may be called by one thread at a
 * time. If the queue fills, further completions are lost and reported as
 * {@link AsyncError#COMPLETION_PROTECTION}: size it for every descriptor that can be outstanding.
 */
public interface CompletionQueue extends AutoCloseable
{
    /**
     * Entries the queue can hold.
     *
     * @return the capacity.
     */
    int capacity();

    /**
     * Changes the capacity, as {@code VipResizeCQ} does; entries already queued are kept.
     *
     * @param capacity the new capacity, at least the number of entries queued.
     * @throws IllegalArgumentException if the capacity is too small for the queued entries or above the NIC's
     *                                  limit.
     */
    void resize(int capacity);

    /**
     * Takes the oldest entry, if any, without waiting.
     *
     * @param completion filled with the VI and queue that completed.
     * @return true if an entry was taken; false if the queue was empty.
     */
    boolean done(Completion completion);

    /**
     * Takes the oldest entry, waiting up to {@code timeoutNs} for one: spins briefly, then parks.
     *
     * @param timeoutNs  longest wait; {@link Long#MAX_VALUE} waits until an entry arrives or the NIC closes.
     * @param completion filled with the VI and queue that completed.
     * @return true if an entry was taken; false on timeout, on interruption of the thread, or when the NIC
     *         closes.
     */
    boolean await(long timeoutNs, Completion completion);

    /**
     * Destroys the queue; a wait in progress on it returns false.
     *
     * @throws IllegalStateException if a VI still uses it.
     */
    @Override
    void close();
}
