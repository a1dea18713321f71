package org.viadsm.via.engine;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.via.AsyncError;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.descriptor.DescriptorLayout;
import org.viadsm.via.descriptor.DescriptorStatus;

import java.lang.invoke.VarHandle;

/**
 * The target side of the data operations on one connected VI: checks everything against the target's VI record
 * and registration table first, then moves the bytes straight into or out of the target's registered memory, and
 * completes the target's receive entry. No target thread is involved, and nothing is written when a check fails.
 * <p>
 * Results are the {@code *} codes below; {@link #detail()} then says what failed. RDMA Writes are followed by a
 * release fence, so the target sees the writes of one VI in posting order. No exception leaves an operation: one
 * raised while the bytes move (a memory fault the JVM raises at the copy, a bug) completes the receive the operation
 * claimed, if any, with a transport error and reports {@link #TARGET_FAULT}, so neither work queue is left holding
 * a claimed entry nobody completes. (A fault the JVM raises only later, asynchronously, from compiled code, cannot be
 * tied to the operation.)
 * <p>
 * <b>Note:</b> not thread-safe: one instance per connection, used by the initiating VI's send-queue thread (or the
 * provider thread that acts for it).
 */
public final class TargetAccess
{
    /** The operation succeeded. */
    public static final int OK = 0;
    /** A Send or RDMA Write with immediate data found no receive posted. */
    public static final int RECV_QUEUE_EMPTY = 1;
    /** The target's receive descriptor is malformed (too many segments). */
    public static final int RECV_FORMAT = 2;
    /** A data segment of the target's receive descriptor failed the protection check. */
    public static final int RECV_PROTECTION = 3;
    /** The target's receive descriptor is shorter than the data. */
    public static final int RECV_LENGTH = 4;
    /** An RDMA Write failed the target's checks (VI enable bit, handle, ptag, bounds, region enable bit). */
    public static final int RDMA_WRITE_PROTECTION = 5;
    /** An RDMA Read or atomic failed the target's checks. */
    public static final int RDMA_READ_PROTECTION = 6;
    /**
     * Memory faulted while the bytes moved (a mapped file that can no longer back a page raises an
     * {@link InternalError}); a receive the operation claimed is completed with a transport error.
     */
    public static final int TARGET_FAULT = 7;
    /**
     * The target VI has been connected again since this connection was made: nothing was done, and this side of
     * the connection is gone.
     */
    public static final int NOT_CONNECTED = 8;

    private final PeerNic target;
    private final ViRecord targetVi;
    private final RecvRing targetRing;
    private final SegmentList scatter;
    private final SegmentList single = new SegmentList(1);
    private final TargetRegions regions;
    private final long epoch;
    private final int incarnation;
    private long atomicResult;
    private String detail;

    /**
     * Creates the target side of a connection.
     *
     * @param target   the target NIC.
     * @param targetVi the target VI's record.
     * @param ring     the target VI's receive ring.
     */
    TargetAccess(final PeerNic target, final ViRecord targetVi, final RecvRing ring)
    {
        this(target, targetVi, ring, targetVi.recvEpoch());
    }

    /**
     * Creates the target side of a connection made at a given connection epoch of the target VI; the receives it
     * completes are announced for the target record's incarnation as of now.
     *
     * @param target   the target NIC.
     * @param targetVi the target VI's record.
     * @param ring     the target VI's receive ring.
     * @param epoch    the target record's {@link ViRecord#recvEpoch()} once connected to this connection's VI.
     */
    TargetAccess(final PeerNic target, final ViRecord targetVi, final RecvRing ring, final long epoch)
    {
        this.target = target;
        this.targetVi = targetVi;
        this.targetRing = ring;
        this.scatter = new SegmentList(ring.maxSegments());
        this.epoch = epoch;
        this.incarnation = targetVi.incarnation();
        this.regions = new TargetRegions(target, targetVi);
    }

    /**
     * The asynchronous error both ends of a reliable connection report when an operation fails at the target.
     *
     * @param outcome a failure code of this class.
     * @return the error.
     */
    public static AsyncError asyncError(final int outcome)
    {
        switch (outcome)
        {
            case RECV_QUEUE_EMPTY:
                return AsyncError.RECEIVE_QUEUE_EMPTY;
            case RDMA_WRITE_PROTECTION:
                return AsyncError.RDMA_WRITE_PROTECTION;
            case RDMA_READ_PROTECTION:
                return AsyncError.RDMA_READ_PROTECTION;
            default:
                return AsyncError.CONNECTION_LOST;
        }
    }

    /**
     * The registration rights a one-sided operation needs at its target: an RDMA Write writes, an RDMA Read reads,
     * and an atomic does both.
     *
     * @param op the descriptor's operation.
     * @return the {@link RegistrationLayout} flags.
     */
    public static int requiredRights(final int op)
    {
        return DescriptorLayout.OP_RDMA_WRITE == op ? RegistrationLayout.FLAG_RDMA_WRITE :
            DescriptorLayout.OP_RDMA_READ == op ? RegistrationLayout.FLAG_RDMA_READ :
            RegistrationLayout.FLAG_RDMA_READ | RegistrationLayout.FLAG_RDMA_WRITE;
    }

    /**
     * The error bit the initiator's descriptor carries when its operation fails at the target, as
     * {@link ReliabilityLevel} says per level: none at the unreliable level, and none for a Send or RDMA Write at
     * the reliable-delivery level (reported only asynchronously).
     *
     * @param reliability the connection's level.
     * @param op          the operation, a {@code DescriptorLayout.OP_*} value.
     * @param outcome     a failure code of this class.
     * @return {@code RDMA_PROT_ERROR}, {@code REMOTE_DESC_ERROR} or 0.
     */
    public static int initiatorError(final ReliabilityLevel reliability, final int op, final int outcome)
    {
        if (!reliability.isReliable() || ReliabilityLevel.RELIABLE_DELIVERY == reliability &&
            (DescriptorLayout.OP_SEND == op || DescriptorLayout.OP_RDMA_WRITE == op))
        {
            return 0;
        }
        return RDMA_WRITE_PROTECTION == outcome || RDMA_READ_PROTECTION == outcome ?
            DescriptorStatus.RDMA_PROT_ERROR : DescriptorStatus.REMOTE_DESC_ERROR;
    }

    /**
     * The target NIC.
     *
     * @return the peer.
     */
    public PeerNic target()
    {
        return target;
    }

    /**
     * The target VI's record.
     *
     * @return the record.
     */
    ViRecord targetVi()
    {
        return targetVi;
    }

    /**
     * The target VI's receive ring.
     *
     * @return the ring.
     */
    RecvRing targetRing()
    {
        return targetRing;
    }

    /**
     * What the last failed operation found, for error details.
     *
     * @return a sentence, or null after a success.
     */
    public String detail()
    {
        return detail;
    }

    /**
     * The previous value of the word the last successful atomic operated on.
     *
     * @return the old value.
     */
    public long atomicResult()
    {
        return atomicResult;
    }

    /**
     * Delivers a Send: claims the oldest receive, checks its segments, scatters the data and completes it.
     *
     * @param source       gathered data.
     * @param length       bytes to send.
     * @param hasImmediate whether immediate data is attached.
     * @param immediate    the immediate data.
     * @return {@link #OK}, a {@code RECV_*} code or {@link #TARGET_FAULT}.
     */
    public int send(final SegmentList source, final int length, final boolean hasImmediate, final int immediate)
    {
        detail = null;
        final long index = targetRing.claim(epoch);
        if (index < 0)
        {
            return noReceive(index, "");
        }
        try
        {
            final int outcome = resolveScatter(index, length);
            if (OK != outcome)
            {
                final int status = DescriptorStatus.DONE | DescriptorStatus.OP_RECEIVE | statusOf(outcome);
                completeReceive(index, status, 0, 0);
                return outcome;
            }
            SegmentList.copy(source, scatter, length);
        }
        catch (final RuntimeException | InternalError ex)
        {
            return fault(index, DescriptorStatus.OP_RECEIVE, ex);
        }
        finally
        {
            scatter.reset();
        }
        final int status = DescriptorStatus.DONE | DescriptorStatus.OP_RECEIVE |
            (hasImmediate ? DescriptorStatus.IMMEDIATE : 0);
        completeReceive(index, status, length, hasImmediate ? immediate : 0);
        return OK;
    }

    /**
     * Performs an RDMA Write, consuming a receive if immediate data is attached.
     *
     * @param handle       target memory handle.
     * @param address      offset into the target region.
     * @param source       gathered data.
     * @param length       bytes to write.
     * @param hasImmediate whether immediate data is attached.
     * @param immediate    the immediate data.
     * @return {@link #OK}, {@link #RDMA_WRITE_PROTECTION}, {@link #RECV_QUEUE_EMPTY} or {@link #TARGET_FAULT}.
     */
    public int rdmaWrite(
        final int handle,
        final long address,
        final SegmentList source,
        final int length,
        final boolean hasImmediate,
        final int immediate)
    {
        detail = null;
        if (!resolveRemote(handle, address, length, RegistrationLayout.FLAG_RDMA_WRITE))
        {
            return RDMA_WRITE_PROTECTION;
        }
        long index = -1;
        if (hasImmediate && (index = targetRing.claim(epoch)) < 0)
        {
            single.reset();
            return noReceive(index, " for an RDMA Write with immediate data");
        }
        try
        {
            SegmentList.copy(source, single, length);
        }
        catch (final RuntimeException | InternalError ex)
        {
            return fault(index, DescriptorStatus.OP_REMOTE_RDMA_WRITE, ex);
        }
        finally
        {
            single.reset();
        }
        VarHandle.releaseFence();
        if (hasImmediate)
        {
            completeReceive(index,
                DescriptorStatus.DONE | DescriptorStatus.OP_REMOTE_RDMA_WRITE | DescriptorStatus.IMMEDIATE,
                length, immediate);
        }
        return OK;
    }

    /**
     * Performs an RDMA Read into local memory.
     *
     * @param handle      target memory handle.
     * @param address     offset into the target region.
     * @param destination local ranges to scatter into.
     * @param length      bytes to read.
     * @return {@link #OK}, {@link #RDMA_READ_PROTECTION} or {@link #TARGET_FAULT}.
     */
    public int rdmaRead(final int handle, final long address, final SegmentList destination, final int length)
    {
        detail = null;
        if (!resolveRemote(handle, address, length, RegistrationLayout.FLAG_RDMA_READ))
        {
            return RDMA_READ_PROTECTION;
        }
        try
        {
            SegmentList.copy(single, destination, length);
        }
        catch (final RuntimeException | InternalError ex)
        {
            return fault(-1, 0, ex);
        }
        finally
        {
            single.reset();
        }
        return OK;
    }

    /**
     * Performs a compare-and-swap or fetch-and-add on an aligned 8-byte word of the target's memory, atomically
     * with respect to every other atomic on that word, the target's own CPU atomics included.
     *
     * @param handle       target memory handle.
     * @param address      offset of the word.
     * @param add          true for fetch-and-add, false for compare-and-swap.
     * @param compareOrAdd the compare value or the addend.
     * @param swap         the swap value of compare-and-swap.
     * @return {@link #OK} (the old value in {@link #atomicResult()}), {@link #RDMA_READ_PROTECTION} or
     *         {@link #TARGET_FAULT}.
     */
    public int atomic(
        final int handle, final long address, final boolean add, final long compareOrAdd, final long swap)
    {
        detail = null;
        if (!resolveRemote(handle, address, 8, requiredRights(DescriptorLayout.OP_ATOMIC)))
        {
            return RDMA_READ_PROTECTION;
        }
        final AtomicBuffer buffer = single.buffer(0);
        final int offset = single.offset(0);
        single.reset();
        if (0 != ((buffer.addressOffset() + offset) & 7))
        {
            detail = "atomic target word at offset " + address + " of handle 0x" + Integer.toHexString(handle) +
                " is not 8-byte aligned in memory";
            return RDMA_READ_PROTECTION;
        }
        try
        {
            atomicResult = add ? buffer.getAndAddLong(offset, compareOrAdd) : compareAndSwap(buffer, offset,
                compareOrAdd, swap);
        }
        catch (final RuntimeException | InternalError ex)
        {
            return fault(-1, 0, ex);
        }
        return OK;
    }

    private static long compareAndSwap(final AtomicBuffer buffer, final int offset, final long expected,
        final long swap)
    {
        long current;
        do
        {
            current = buffer.getLongVolatile(offset);
        }
        while (current == expected && !buffer.compareAndSetLong(offset, current, swap));
        return current;
    }

    private void completeReceive(
        final long index, final int status, final int length, final int immediate)
    {
        RecvCompletion.complete(target, targetVi, targetRing, index, status, length, immediate, incarnation);
    }

    private int noReceive(final long claimed, final String what)
    {
        if (RecvRing.EPOCH_MISMATCH == claimed)
        {
            detail = "VI " + targetVi.viId() + " of " + target.address() + " has been connected again";
            return NOT_CONNECTED;
        }
        detail = "no receive descriptor posted on VI " + targetVi.viId() + " of " + target.address() + what;
        return RECV_QUEUE_EMPTY;
    }

    /**
     * An exception interrupted the bytes: completes the receive the operation claimed, if any, with a transport
     * error, and reports the fault.
     */
    private int fault(final long claimedIndex, final int receiveOp, final Throwable ex)
    {
        detail = "memory fault while serving VI " + targetVi.viId() + " of " + target.address() + ": " + ex;
        if (claimedIndex >= 0)
        {
            completeReceive(claimedIndex,
                DescriptorStatus.DONE | receiveOp | DescriptorStatus.TRANSPORT_ERROR, 0, 0);
        }
        return TARGET_FAULT;
    }

    private boolean resolveRemote(final int handle, final long address, final int length, final int flags)
    {
        if ((targetVi.flags() & flags) != flags)
        {
            return notEnabled(flags);
        }
        final AtomicBuffer buffer = regions.resolve(handle, address, length, flags);
        if (null == buffer)
        {
            detail = regions.detail();
            return false;
        }
        single.add(buffer, (int)address, length);
        return true;
    }

    private boolean notEnabled(final int flags)
    {
        detail = (flags == RegistrationLayout.FLAG_RDMA_WRITE ? "RDMA Write" : "RDMA Read") +
            " not enabled on VI " + targetVi.viId() + " of " + target.address();
        return false;
    }

    private int resolveScatter(final long index, final int length)
    {
        scatter.reset();
        final int count = targetRing.segmentCount(index);
        if (count < 0 || count > targetRing.maxSegments())
        {
            detail = "receive descriptor of VI " + targetVi.viId() + " has " + count + " segments";
            return RECV_FORMAT;
        }
        if (targetRing.entryCapacity(index) < length)
        {
            detail = "receive descriptor of VI " + targetVi.viId() + " holds " + targetRing.entryCapacity(index) +
                " bytes, the Send carries " + length;
            return RECV_LENGTH;
        }
        final RegistrationTable table = target.area().table();
        final int ptag = targetVi.ptag();
        for (int i = 0; i < count; i++)
        {
            final int handle = targetRing.segmentHandle(index, i);
            final long address = targetRing.segmentAddress(index, i);
            final int segmentLength = targetRing.segmentLength(index, i);
            final int check = table.check(handle, ptag, 0, address, segmentLength);
            final AtomicBuffer buffer = RegistrationTable.CHECK_OK == check ?
                target.regionBuffer(table.handleIndex(handle), table.handleGeneration(handle)) : null;
            if (null == buffer)
            {
                scatter.reset();
                detail = "receive segment " + i + " of VI " + targetVi.viId() + ": " +
                    RegistrationTable.describe(check) + " (handle 0x" + Integer.toHexString(handle) + ")";
                return RECV_PROTECTION;
            }
            scatter.add(buffer, (int)address, segmentLength);
        }
        return OK;
    }

    private static int statusOf(final int outcome)
    {
        switch (outcome)
        {
            case RECV_FORMAT:
                return DescriptorStatus.FORMAT_ERROR;
            case RECV_PROTECTION:
                return DescriptorStatus.PROTECTION_ERROR;
            default:
                return DescriptorStatus.LENGTH_ERROR;
        }
    }
}
