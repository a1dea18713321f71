package org.viadsm.via.engine;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.descriptor.DataSegments;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorLayout;
import org.viadsm.via.descriptor.DescriptorStatus;

/**
 * The initiator's side of the checks on a send-queue descriptor: its operation against the VI's enable bits and
 * reliability level, its segment count and length against the NIC's limits and the agreed transfer size, and each
 * data segment against the local registration table; the segments that pass are resolved into a gather (or, for
 * RDMA Read and atomics, scatter) list.
 * <p>
 * <b>Note:</b> not thread-safe: one instance per VI, used by the thread that executes its send queue.
 */
public final class LocalAccess
{
    private static final int[] OP_STATUS =
    {
        DescriptorStatus.OP_SEND, DescriptorStatus.OP_RDMA_WRITE, DescriptorStatus.OP_RDMA_READ,
        DescriptorStatus.OP_ATOMIC
    };

    private static final int CHECKED_SLOTS = 64;

    private final EngineNic nic;
    private final ViConnection vi;
    private final ViRecord record;
    private final RegistrationTable table;
    private final SegmentList local;
    private final int maxSegments;
    private final ReliabilityLevel reliability;
    private final int viPtag;
    private final int viFlags;
    // the operations the VI may post, one bit per DescriptorLayout.OP_* value: Send always; RDMA Write if enabled on
    // the VI; RDMA Read if enabled and its level allows it; atomics as RDMA Read, on a NIC that supports them. One
    // test for every kind, so that compiled checks built from a profile of one kind take no branch of their own on it
    private final int enabledOps;
    // whether the VI's atomics pass the operation's check and can have their one data segment
    private final boolean atomicsEnabled;
    // whether the VI's RDMA Reads pass the operation's check and can have one data segment
    private final boolean readsEnabled;
    // the regions whose data segments were checked last, one per slot of their table index modulo CHECKED_SLOTS, and
    // their buffers: a segment in a region checked before is checked by its generation alone. A DSM node's
    // descriptors alternate between its arrays' regions, its control words and its message buffers; one remembered
    // region missed on a third of OCEAN's descriptors, 64 slots on about one in twelve (mostly the first use of a
    // region registered anew by the next run). The buffers' array is typed Object[], as SegmentList's is: C2 (JDK 25)
    // guards a store into an array of an interface type with a speculative store check that always fails, and the
    // trap (array_check) at a slot's first region of a new run sent the checks back to be compiled again
    private final CheckedRegion[] checked = new CheckedRegion[CHECKED_SLOTS];
    private final Object[] checkedBuffers = new Object[CHECKED_SLOTS];
    private String detail;

    /**
     * Creates the checks of one VI.
     *
     * @param nic the VI's NIC.
     * @param vi  the VI's connection.
     */
    public LocalAccess(final EngineNic nic, final ViConnection vi)
    {
        this.nic = nic;
        this.vi = vi;
        this.record = vi.record();
        this.table = nic.area().table();
        this.maxSegments = nic.attributes().maxSegmentsPerDescriptor();
        this.local = new SegmentList(maxSegments);
        this.reliability = vi.reliability();
        // fixed for the VI's life: read once, not from the record's line, which its other words share
        this.viPtag = record.ptag();
        this.viFlags = record.flags();
        final boolean readEnabled = reliability.allowsRdmaRead() && 0 != (viFlags & RegistrationLayout.FLAG_RDMA_READ);
        final boolean atomicEnabled = readEnabled && nic.attributes().atomicsSupport();
        this.enabledOps = 1 << DescriptorLayout.OP_SEND |
            (0 != (viFlags & RegistrationLayout.FLAG_RDMA_WRITE) ? 1 << DescriptorLayout.OP_RDMA_WRITE : 0) |
            (readEnabled ? 1 << DescriptorLayout.OP_RDMA_READ : 0) |
            (atomicEnabled ? 1 << DescriptorLayout.OP_ATOMIC : 0);
        this.atomicsEnabled = atomicEnabled && maxSegments >= 1;
        this.readsEnabled = readEnabled && maxSegments >= 1;
        for (int i = 0; i < CHECKED_SLOTS; i++)
        {
            checked[i] = new CheckedRegion();
        }
    }

    /**
     * The operation bits of a completed send-queue descriptor's status.
     *
     * @param op the descriptor's operation, a {@code DescriptorLayout.OP_*} value.
     * @return a {@code DescriptorStatus.OP_*} value.
     */
    public static int opStatus(final int op)
    {
        return OP_STATUS[op];
    }

    /**
     * The local memory the last successful {@link #check} resolved, in segment order; {@link #reset()} it after
     * use.
     *
     * @return the gather or scatter list.
     */
    public SegmentList local()
    {
        return local;
    }

    /**
     * What the last failed {@link #check} found.
     *
     * @return a sentence.
     */
    public String detail()
    {
        return detail;
    }

    /**
     * Empties the resolved list.
     */
    public void reset()
    {
        local.reset();
    }

    /**
     * Checks a descriptor and resolves its data segments into {@link #local()}.
     *
     * @param descriptor the posted descriptor.
     * @param op         its operation.
     * @return 0 if it may be executed, else the status error bit ({@code FORMAT_ERROR}, {@code LENGTH_ERROR} or
     * {@code PROTECTION_ERROR}) it completes with; the list is then empty.
     */
    public int check(final Descriptor descriptor, final int op)
    {
        local.reset();
        if (0 == (enabledOps & 1 << op))
        {
            return notEnabled(op);
        }
        final int count = descriptor.segments().count();
        if (count > maxSegments || count > descriptor.maxSegments())
        {
            return tooManySegments(count);
        }
        if (DescriptorLayout.OP_ATOMIC == op &&
            (count < 1 || 8 != descriptor.segments().length(0) || 0 != (descriptor.remoteAddress() & 7)))
        {
            return refuse(DescriptorStatus.FORMAT_ERROR,
                "atomic needs an 8-byte first segment and an 8-byte aligned remote address");
        }
        final int length = descriptor.length();
        if (length < 0 || length > record.effectiveMaxTransfer())
        {
            return tooLong(length);
        }
        final int error = gather(descriptor, op, count, length);
        if (0 != error)
        {
            local.reset();
        }
        return error;
    }

    /**
     * {@link #check} of an RDMA Read, with the common case first: one data segment in a region checked before, which
     * holds the descriptor's length, within the VI's maximum transfer size, on a VI whose reads are enabled (a DSM
     * node's page fetch). That case is decided by the same tests as the general check's, without its loop and its
     * other operations' branches; anything else goes through the general check, which completes the checks and words
     * the error.
     *
     * @param descriptor the posted RDMA Read.
     * @return 0 if it may be executed, else the status error bit {@link #check} returns; the list is then empty.
     */
    public int checkRead(final Descriptor descriptor)
    {
        final DataSegments segments = descriptor.segments();
        final int length = descriptor.length();
        if (readsEnabled && 1 == segments.count() && descriptor.maxSegments() >= 1 && length >= 0 &&
            length <= record.effectiveMaxTransfer() && length <= segments.length(0) &&
            takeRemembered(segments, segments.length(0)))
        {
            return 0;
        }
        return check(descriptor, DescriptorLayout.OP_RDMA_READ);
    }

    /**
     * {@link #check} of an atomic, with the common case first: one 8-byte data segment in a region checked before, an
     * aligned remote address, the descriptor's length 8, on a VI whose atomics are enabled. That case is decided by
     * the same tests as the general check's, without its loop and its other operations' branches (its compiled code
     * is a fraction of the general check's); anything else goes through the general check, which completes the
     * checks and words the error.
     *
     * @param descriptor the posted atomic.
     * @return 0 if it may be executed, else the status error bit {@link #check} returns; the list is then empty.
     */
    public int checkAtomic(final Descriptor descriptor)
    {
        final DataSegments segments = descriptor.segments();
        if (atomicsEnabled && 1 == segments.count() && 8 == segments.length(0) &&
            0 == (descriptor.remoteAddress() & 7) && 8 == descriptor.length() && record.effectiveMaxTransfer() >= 8 &&
            takeRemembered(segments, 8))
        {
            return 0;
        }
        return check(descriptor, DescriptorLayout.OP_ATOMIC);
    }

    /**
     * The common case of {@link #checkRead} and {@link #checkAtomic}: their one data segment, of {@code length}
     * bytes, passes the memo of its slot, and becomes the list's one segment.
     */
    private boolean takeRemembered(final DataSegments segments, final int length)
    {
        final int handle = segments.handle(0);
        final long address = segments.address(0);
        final int slot = table.handleIndex(handle) & (CHECKED_SLOTS - 1);
        if (checked[slot].passes(handle, viPtag, 0, address, length))
        {
            local.reset().add((AtomicBuffer)checkedBuffers[slot], (int)address, length);
            return true;
        }
        return false;
    }

    /**
     * The local registration table the checks read.
     *
     * @return the NIC's table.
     */
    public RegistrationTable table()
    {
        return table;
    }

    private int gather(final Descriptor descriptor, final int op, final int count, final int length)
    {
        final int ptag = viPtag;
        long total = 0;
        for (int i = 0; i < count; i++)
        {
            final int handle = descriptor.segments().handle(i);
            final long address = descriptor.segments().address(i);
            final int segmentLength = descriptor.segments().length(i);
            final int slot = table.handleIndex(handle) & (CHECKED_SLOTS - 1);
            if (!checked[slot].passes(handle, ptag, 0, address, segmentLength))
            {
                final int error = checkSegment(i, slot, handle, ptag, address, segmentLength);
                if (0 != error)
                {
                    return error;
                }
            }
            local.add((AtomicBuffer)checkedBuffers[slot], (int)address, segmentLength);
            total += segmentLength;
        }
        if (DescriptorLayout.OP_ATOMIC != op && length > total)
        {
            return refuse(DescriptorStatus.LENGTH_ERROR,
                "length " + length + " exceeds the " + total + " bytes of the data segments");
        }
        return 0;
    }

    private int notEnabled(final int op)
    {
        return refuse(DescriptorStatus.FORMAT_ERROR, "operation " + op + " is not enabled on VI " + vi.id());
    }

    private int tooManySegments(final int count)
    {
        return refuse(DescriptorStatus.FORMAT_ERROR,
            "descriptor has " + count + " segments, the NIC takes " + maxSegments);
    }

    private int tooLong(final int length)
    {
        return refuse(DescriptorStatus.LENGTH_ERROR,
            "length " + length + " exceeds the maximum transfer size " + record.effectiveMaxTransfer());
    }

    private int refuse(final int error, final String why)
    {
        detail = why;
        return error;
    }

    /**
     * Checks a data segment of a region not remembered in its slot against the table, and remembers its region there;
     * out of {@link #gather}'s loop, so that the common case (a region checked before) compiles small.
     *
     * @return 0, or {@code PROTECTION_ERROR}.
     */
    private int checkSegment(final int i, final int slot, final int handle, final int ptag, final long address,
        final int segmentLength)
    {
        final int check = table.check(handle, ptag, 0, address, segmentLength);
        if (RegistrationTable.CHECK_OK != check)
        {
            detail = "data segment " + i + ": " + RegistrationTable.describe(check) + " (handle 0x" +
                Integer.toHexString(handle) + ", address " + address + ", length " + segmentLength + ")";
            return DescriptorStatus.PROTECTION_ERROR;
        }
        final AtomicBuffer buffer = nic.localRegionBuffer(table.handleIndex(handle), table.handleGeneration(handle));
        if (null == buffer)
        {
            detail = "data segment " + i + ": memory deregistered during the check";
            return DescriptorStatus.PROTECTION_ERROR;
        }
        checked[slot].remember(table, handle);
        checkedBuffers[slot] = buffer;
        return 0;
    }
}
