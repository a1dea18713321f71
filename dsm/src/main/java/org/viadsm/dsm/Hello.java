package org.viadsm.dsm;

import org.viadsm.consistency.ProtocolConfig;

/**
 * What a joining node tells every other: who it is, the protocol sizes it was configured with (which must be the
 * same everywhere) and the handle of its control region.
 *
 * @param node          the sender.
 * @param nodes         the cluster's size as the sender sees it.
 * @param pageSize      the coherence unit.
 * @param maxLocks      lock ids.
 * @param maxSemaphores semaphore ids.
 * @param logIntervals  intervals the notice log holds.
 * @param logNotices    notices the notice log holds.
 * @param controlHandle the memory handle of the sender's control region.
 */
record Hello(int node, int nodes, int pageSize, int maxLocks, int maxSemaphores, int logIntervals, int logNotices,
    int controlHandle)
{
    static Hello of(final int node, final int nodes, final ProtocolConfig config, final int controlHandle)
    {
        return new Hello(node, nodes, config.pageSize(), config.maxLocks(), config.maxSemaphores(),
            config.logIntervals(), config.logNotices(), controlHandle);
    }
}
