package org.viadsm.via;

/**
 * The reliability levels of VIA 1.0, chosen per VI and required to match at both ends of a connection.
 * <table>
 * <caption>What each level promises</caption>
 * <tr><th>level</th><th>delivery</th><th>a Send or RDMA Write completes</th><th>on an error</th></tr>
 * <tr><td>{@link #UNRELIABLE}</td><td>at most once; loss possible and not reported</td>
 * <td>when the data has left the initiator</td>
 * <td>the message is dropped; the connection stays up. RDMA Read and atomics are not available.</td></tr>
 * <tr><td>{@link #RELIABLE_DELIVERY}</td><td>exactly once, in order</td>
 * <td>when the target NIC has accepted the data</td>
 * <td>the connection breaks: both VIs enter {@link ViState#ERROR}, later and outstanding descriptors complete
 * with {@code DESC_FLUSHED_ERROR}, and the error reaches both ends through the {@link AsyncErrorHandler}.
 * An error found at the target after the initiator's descriptor completed is reported only that way.</td></tr>
 * <tr><td>{@link #RELIABLE_RECEPTION}</td><td>exactly once, in order</td>
 * <td>only when the data is in the target's memory</td>
 * <td>as for reliable delivery, and the failing descriptor itself carries the error
 * ({@code RDMA_PROT_ERROR} or {@code REMOTE_DESC_ERROR}).</td></tr>
 * </table>
 * Memory-consistency effect of reliable reception: actions of the initiator before it posted a Send or RDMA Write,
 * and the transferred data itself, happen-before the initiator's observation of the completed descriptor, and that
 * data is visible to any thread of the target that afterwards synchronizes with the initiator.
 */
public enum ReliabilityLevel
{
    /** No delivery guarantee; no RDMA Read. VIPL value 1. */
    UNRELIABLE(1),
    /** Exactly-once, in-order delivery to the target NIC. VIPL value 2. */
    RELIABLE_DELIVERY(2),
    /** Exactly-once, in-order placement in target memory before completion. VIPL value 4. */
    RELIABLE_RECEPTION(4);

    private final int vipValue;

    ReliabilityLevel(final int vipValue)
    {
        this.vipValue = vipValue;
    }

    /**
     * The level's bit in VIPL ({@code VIP_SERVICE_UNRELIABLE} and so on).
     *
     * @return 1, 2 or 4.
     */
    public int vipValue()
    {
        return vipValue;
    }

    /**
     * Whether RDMA Read and remote atomics may be used at this level.
     *
     * @return false only for {@link #UNRELIABLE}.
     */
    public boolean allowsRdmaRead()
    {
        return this != UNRELIABLE;
    }

    /**
     * Whether an error at this level breaks the connection.
     *
     * @return false only for {@link #UNRELIABLE}.
     */
    public boolean isReliable()
    {
        return this != UNRELIABLE;
    }
}
