package org.viadsm.via.provider.ucx;

/**
 * What a link's get, atomic or active message waits for after the puts posted before it, so that it takes effect
 * after them: the completion of the puts flushed with their put, a flush of the others, or, over the transports
 * where that suffices ({@link UcxConfiguration#fenceOrdersPuts()}), a fence and no wait at all. A put posted at the
 * reliable-reception level still completes only once its flush did, fence or not.
 * <p>
 * <b>Note:</b> not thread-safe; used by the send queue under the lock of its link.
 */
final class PutOrder
{
    private final long worker;
    private final boolean fenced;
    private long lastFlushedPut = -1;
    private boolean unflushedWrites;
    private boolean unfencedPuts;

    /**
     * The order of one link's puts.
     *
     * @param worker the worker whose fence orders them ({@link Ucp#fence}).
     * @param fenced whether a fence does, else the puts are flushed first.
     */
    PutOrder(final long worker, final boolean fenced)
    {
        this.worker = worker;
        this.fenced = fenced;
    }

    /**
     * Whether an operation issued now must wait for the put of slot index {@code head} or later to complete.
     *
     * @param head the send queue's head (the oldest descriptor not completed).
     * @return true if it waits.
     */
    boolean awaitsFlushedPut(final long head)
    {
        return !fenced && lastFlushedPut >= head;
    }

    /**
     * Whether puts were issued without a flush since an operation was last ordered behind them ({@link #orderPuts()}),
     * so that the next get, atomic or message cannot leave on an idle queue's direct path.
     *
     * @return true if such puts were issued.
     */
    boolean hasUnflushedWrites()
    {
        return unflushedWrites;
    }

    /**
     * Whether the operation issued next waits for a flush of the puts before it: puts were issued without one and
     * no fence orders them.
     *
     * @return true if it must.
     */
    boolean mustFlush()
    {
        return unflushedWrites && !fenced;
    }

    /**
     * Orders what was put so far before the operation issued next: a fence if one suffices and puts were issued
     * since the last; otherwise the caller has flushed them, which this records.
     */
    void orderPuts()
    {
        if (fenced && unfencedPuts)
        {
            final int status = Ucp.fence(worker);
            if (Ucp.OK != status)
            {
                throw new IllegalStateException("ucp_worker_fence failed: " + Ucp.describe(status, null));
            }
            unfencedPuts = false;
        }
        unflushedWrites = false;
    }

    /**
     * A put was issued as the descriptor of index {@code index}.
     *
     * @param index   its index in the send queue.
     * @param flushed whether a flush was issued with it (its descriptor completes with the flush).
     */
    void onPut(final long index, final boolean flushed)
    {
        if (fenced)
        {
            unfencedPuts = true;
            unflushedWrites |= !flushed;
        }
        else if (flushed)
        {
            lastFlushedPut = index;
            unflushedWrites = false;
        }
        else
        {
            unflushedWrites = true;
        }
    }

    /**
     * The send queue starts again at slot 0: every put it issued completed, so only the unflushed ones are left
     * to order.
     */
    void rewind()
    {
        lastFlushedPut = -1;
        unfencedPuts &= unflushedWrites;
    }
}
