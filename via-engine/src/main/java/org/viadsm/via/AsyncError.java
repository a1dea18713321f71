package org.viadsm.via;

/**
 * Asynchronous errors, as VIA 1.0 reports them through {@code VipErrorCallback}: failures that no descriptor
 * status can carry, or that happened at the other end of a connection.
 */
public enum AsyncError
{
    /** A descriptor was posted that the NIC could not even read. */
    POST_DESCRIPTOR,
    /** The connection was lost: the peer disconnected, closed, died, or broke the connection after an error. */
    CONNECTION_LOST,
    /** A Send arrived on a VI with no receive descriptor posted. */
    RECEIVE_QUEUE_EMPTY,
    /** A work queue overflowed its capacity. */
    VI_OVERRUN,
    /** An incoming RDMA Write failed the protection check (handle, ptag, bounds or enable bit). */
    RDMA_WRITE_PROTECTION,
    /** An incoming RDMA Write carried malformed data. */
    RDMA_WRITE_DATA,
    /** An incoming RDMA Write was aborted part-way. */
    RDMA_WRITE_ABORT,
    /** An incoming RDMA Read or atomic failed the protection check. */
    RDMA_READ_PROTECTION,
    /** A completion could not be written to a completion queue (it was full). */
    COMPLETION_PROTECTION,
    /** The transport failed while serving an RDMA operation. */
    RDMA_TRANSPORT,
    /** The NIC can no longer work (its shared memory or engine failed). */
    CATASTROPHIC
}
