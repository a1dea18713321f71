package org.viadsm.via;

/**
 * What a completion queue reports: which VI, and which of its work queues, has a completed descriptor. A reusable
 * holder, filled by {@link CompletionQueue#done(Completion)} and {@link CompletionQueue#await(long, Completion)};
 * the descriptor itself is then taken with the VI's {@code sendDone()} or {@code recvDone()}.
 */
public final class Completion
{
    private Vi vi;
    private boolean recvQueue;

    /**
     * Creates an empty completion, for a poll or wait to fill.
     */
    public Completion()
    {
    }

    /**
     * The VI with a completed descriptor.
     *
     * @return the VI, or null before the first completion.
     */
    public Vi vi()
    {
        return vi;
    }

    /**
     * Whether the completion is on the VI's receive queue (else its send queue).
     *
     * @return true for the receive queue.
     */
    public boolean isRecvQueue()
    {
        return recvQueue;
    }

    /**
     * Provider side: fills the holder.
     *
     * @param vi        the VI.
     * @param recvQueue whether the receive queue completed.
     * @return this.
     */
    public Completion set(final Vi vi, final boolean recvQueue)
    {
        this.vi = vi;
        this.recvQueue = recvQueue;
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "Completion{vi=" + (null == vi ? "none" : vi.id()) + ", queue=" + (recvQueue ? "recv" : "send") + '}';
    }
}
