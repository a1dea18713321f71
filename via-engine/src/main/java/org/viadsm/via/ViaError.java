package org.viadsm.via;

/**
 * Why a VIA control call failed, after VIPL's return codes ({@code VIP_TIMEOUT}, {@code VIP_REJECT} and so on).
 * Carried by {@link ViaException}.
 */
public enum ViaError
{
    /** A connection request or wait did not complete in time. */
    TIMEOUT,
    /** The peer rejected the connection request. */
    REJECT,
    /** No NIC answers at the remote address, or it closed. */
    NOT_REACHABLE,
    /** The two VIs' attributes cannot be connected (reliability level or maximum transfer size differ). */
    NO_MATCH,
    /** A resource is exhausted: VIs, completion-queue entries, registration-table entries or memory. */
    ERROR_RESOURCE,
    /** The name service does not know the name. */
    ERROR_NAMESERVICE,
    /** The provider does not support the request (e.g. RDMA Read at the unreliable level). */
    ERROR_NOT_SUPPORTED,
    /** The provider failed: an I/O error, or shared memory that could not be mapped. */
    CATASTROPHIC
}
