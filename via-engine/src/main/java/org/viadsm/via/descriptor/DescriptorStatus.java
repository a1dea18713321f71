package org.viadsm.via.descriptor;

/**
 * Bits of a descriptor's status word, as the VIA 1.0 specification defines them.
 * <p>
 * A status of 0 means the descriptor is still owned by the NIC. {@link #DONE} is set on every completed descriptor,
 * successful or not; one or more error bits say what went wrong. The operation field says what completed: on a
 * receive queue it tells a Send ({@link #OP_RECEIVE}) from an RDMA Write with immediate data
 * ({@link #OP_REMOTE_RDMA_WRITE}).
 */
public final class DescriptorStatus
{
    /** The descriptor has completed (with or without error). */
    public static final int DONE = 0x1;
    /**
     * The descriptor was malformed or asks for what the VI does not allow: an operation whose RDMA enable bit is
     * off (or RDMA Read at the unreliable level), more segments than the NIC takes, an atomic whose first segment
     * is not 8 bytes or whose remote address is not 8-byte aligned; on a receive, more segments than the NIC takes.
     */
    public static final int FORMAT_ERROR = 0x2;
    /** A local data segment failed the protection check: unknown handle, other ptag, out of bounds. */
    public static final int PROTECTION_ERROR = 0x4;
    /**
     * The length is wrong: above the maximum transfer size agreed at connection, above the sum of the data
     * segments, or, on a receive, shorter than the incoming Send (no byte is then written).
     */
    public static final int LENGTH_ERROR = 0x8;
    /** Only part of the transfer took place (reported with another error bit). */
    public static final int PARTIAL_ERROR = 0x10;
    /** The descriptor was flushed unexecuted because the VI disconnected or broke. */
    public static final int DESC_FLUSHED_ERROR = 0x20;
    /** The transport failed: the connection was lost, or the peer sent a malformed frame. */
    public static final int TRANSPORT_ERROR = 0x40;
    /** The remote memory failed the RDMA or atomic protection check: handle, ptag, bounds or enable bits. */
    public static final int RDMA_PROT_ERROR = 0x80;
    /** The remote receive descriptor failed: none posted, or too short (reliable reception reports it). */
    public static final int REMOTE_DESC_ERROR = 0x100;
    /** Every error bit. */
    public static final int ERROR_MASK = 0x1FE;

    /** Operation field: a Send completed on a send queue. */
    public static final int OP_SEND = 0;
    /** Operation field: a Send was received into a receive descriptor. */
    public static final int OP_RECEIVE = 0x10000;
    /** Operation field: an RDMA Write completed on the initiator's send queue. */
    public static final int OP_RDMA_WRITE = 0x20000;
    /** Operation field: an RDMA Write with immediate data consumed this receive descriptor. */
    public static final int OP_REMOTE_RDMA_WRITE = 0x30000;
    /** Operation field: an RDMA Read completed. */
    public static final int OP_RDMA_READ = 0x40000;
    /** Operation field (extension): a remote atomic completed. */
    public static final int OP_ATOMIC = 0x50000;
    /** Mask of the operation field. */
    public static final int OP_MASK = 0x70000;
    /** The immediate data field of the descriptor is valid. */
    public static final int IMMEDIATE = 0x80000;

    private DescriptorStatus()
    {
    }

    /**
     * Whether a status word says the descriptor completed.
     *
     * @param status the status word.
     * @return true once the NIC has completed the descriptor.
     */
    public static boolean isDone(final int status)
    {
        return (status & DONE) != 0;
    }

    /**
     * Whether a status word carries any error bit.
     *
     * @param status the status word.
     * @return true if the descriptor completed with an error.
     */
    public static boolean isError(final int status)
    {
        return (status & ERROR_MASK) != 0;
    }

    /**
     * Renders a status word for messages and logs, e.g. {@code DONE|RDMA_PROT_ERROR op=RDMA_READ}.
     *
     * @param status the status word.
     * @return a readable form.
     */
    public static String toString(final int status)
    {
        if (0 == status)
        {
            return "PENDING";
        }
        final StringBuilder sb = new StringBuilder();
        append(sb, status, DONE, "DONE");
        append(sb, status, FORMAT_ERROR, "FORMAT_ERROR");
        append(sb, status, PROTECTION_ERROR, "PROTECTION_ERROR");
        append(sb, status, LENGTH_ERROR, "LENGTH_ERROR");
        append(sb, status, PARTIAL_ERROR, "PARTIAL_ERROR");
        append(sb, status, DESC_FLUSHED_ERROR, "DESC_FLUSHED_ERROR");
        append(sb, status, TRANSPORT_ERROR, "TRANSPORT_ERROR");
        append(sb, status, RDMA_PROT_ERROR, "RDMA_PROT_ERROR");
        append(sb, status, REMOTE_DESC_ERROR, "REMOTE_DESC_ERROR");
        append(sb, status, IMMEDIATE, "IMMEDIATE");
        sb.append(" op=").append(opName(status & OP_MASK));
        return sb.toString();
    }

    private static String opName(final int op)
    {
        switch (op)
        {
            case OP_SEND:
                return "SEND";
            case OP_RECEIVE:
                return "RECEIVE";
            case OP_RDMA_WRITE:
                return "RDMA_WRITE";
            case OP_REMOTE_RDMA_WRITE:
                return "REMOTE_RDMA_WRITE";
            case OP_RDMA_READ:
                return "RDMA_READ";
            case OP_ATOMIC:
                return "ATOMIC";
            default:
                return "0x" + Integer.toHexString(op);
        }
    }

    private static void append(final StringBuilder sb, final int status, final int bit, final String name)
    {
        if ((status & bit) != 0)
        {
            if (sb.length() > 0)
            {
                sb.append('|');
            }
            sb.append(name);
        }
    }
}
