package org.viadsm.via.descriptor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.internal.AgronaAccess;
import org.viadsm.via.memory.MemoryRegion;

import static org.viadsm.via.descriptor.DescriptorLayout.ALIGNMENT;
import static org.viadsm.via.descriptor.DescriptorLayout.COMPARE_OR_ADD_OFFSET;
import static org.viadsm.via.descriptor.DescriptorLayout.CONTROL_ATOMIC_ADD;
import static org.viadsm.via.descriptor.DescriptorLayout.CONTROL_IMMEDIATE;
import static org.viadsm.via.descriptor.DescriptorLayout.CONTROL_OFFSET;
import static org.viadsm.via.descriptor.DescriptorLayout.CONTROL_OP_MASK;
import static org.viadsm.via.descriptor.DescriptorLayout.CONTROL_QUEUE_FENCE;
import static org.viadsm.via.descriptor.DescriptorLayout.IMMEDIATE_DATA_OFFSET;
import static org.viadsm.via.descriptor.DescriptorLayout.LENGTH_OFFSET;
import static org.viadsm.via.descriptor.DescriptorLayout.OP_ATOMIC;
import static org.viadsm.via.descriptor.DescriptorLayout.OP_RDMA_READ;
import static org.viadsm.via.descriptor.DescriptorLayout.OP_RDMA_WRITE;
import static org.viadsm.via.descriptor.DescriptorLayout.OP_SEND;
import static org.viadsm.via.descriptor.DescriptorLayout.REMOTE_ADDRESS_OFFSET;
import static org.viadsm.via.descriptor.DescriptorLayout.REMOTE_HANDLE_OFFSET;
import static org.viadsm.via.descriptor.DescriptorLayout.STATUS_OFFSET;
import static org.viadsm.via.descriptor.DescriptorLayout.SWAP_OFFSET;
import static org.viadsm.via.descriptor.DescriptorLayout.USER_DATA_OFFSET;

/**
 * A VIA descriptor: a reusable flyweight over {@link DescriptorLayout} memory that says what a work queue must do.
 * <p>
 * A consumer fills a descriptor, posts it with {@code Vi.postSend} or {@code Vi.postRecv}, and gets it back from
 * {@code sendDone}/{@code recvDone} (or their waits) once the NIC has written its status. Posting and completing
 * allocate nothing, so one descriptor can be reused for every operation of a steady-state loop:
 * <pre>{@code
 * Descriptor d = Descriptor.allocate(1);
 * d.reset().rdmaRead(remoteHandle, remoteAddress).addSegment(local, 0, 4096);
 * vi.postSend(d);
 * vi.sendWait(timeoutNs);        // returns d; d.status() tells how it went
 * }</pre>
 * <b>Note:</b> the NIC owns a descriptor from the moment it is posted until it is returned by a done or wait call;
 * meanwhile the consumer must not change it, and posting it again throws ({@link DescriptorOwnership} is the NIC's
 * side of that hand-off). The status word is written last with
 * release semantics and read with acquire semantics, so everything the NIC wrote into the descriptor and into the
 * local data segments happens-before a consumer's read of a completed status.
 */
public final class Descriptor
{
    private static final VarHandle POSTED;

    static
    {
        try
        {
            POSTED = MethodHandles.lookup().findVarHandle(Descriptor.class, "posted", boolean.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final UnsafeBuffer buffer;
    // where the fields lie (base, address plus a layout offset; the layout's length checked by the constructor)
    private final Object base;
    private final long address;
    private final int maxSegments;
    private final DataSegments segments;
    private volatile boolean posted;

    /**
     * Creates a descriptor over caller-provided memory.
     *
     * @param buffer      memory of at least {@link DescriptorLayout#length(int)} bytes, aligned to
     *                    {@link DescriptorLayout#ALIGNMENT}.
     * @param maxSegments data segments the descriptor can hold.
     * @throws IllegalArgumentException if the buffer is too short or misaligned.
     */
    public Descriptor(final AtomicBuffer buffer, final int maxSegments)
    {
        final int required = DescriptorLayout.length(maxSegments);
        if (buffer.capacity() < required)
        {
            throw new IllegalArgumentException(
                "descriptor buffer too short: capacity=" + buffer.capacity() + " required=" + required);
        }
        if (0 != (buffer.addressOffset() & (ALIGNMENT - 1)) && null == buffer.byteArray())
        {
            throw new IllegalArgumentException(
                "descriptor buffer must be aligned to " + ALIGNMENT + " bytes: address=" + buffer.addressOffset());
        }
        this.buffer = AgronaAccess.unsafeBuffer(buffer);
        this.base = buffer.byteArray();
        this.address = buffer.addressOffset();
        this.maxSegments = maxSegments;
        this.segments = new DataSegments(this.buffer, maxSegments);
    }

    /**
     * Allocates a descriptor in aligned off-heap memory.
     *
     * @param maxSegments data segments the descriptor can hold.
     * @return a reset descriptor.
     */
    public static Descriptor allocate(final int maxSegments)
    {
        final int length = DescriptorLayout.length(maxSegments);
        return new Descriptor(new UnsafeBuffer(BufferUtil.allocateDirectAligned(length, ALIGNMENT)), maxSegments);
    }

    /**
     * The memory behind this descriptor.
     *
     * @return the buffer it was made on (a view of the same memory if that was not an {@link UnsafeBuffer}),
     *         starting at the control segment.
     */
    public AtomicBuffer buffer()
    {
        return buffer;
    }

    // the NIC's completion: the length, then the status word with release semantics
    void complete(final int length, final int status)
    {
        UnsafeApi.putInt(base, address + LENGTH_OFFSET, length);
        UnsafeApi.putIntRelease(base, address + STATUS_OFFSET, status);
    }

    // the NIC's write of received immediate data, before complete
    void receivedImmediateData(final int value)
    {
        UnsafeApi.putInt(base, address + IMMEDIATE_DATA_OFFSET, value);
    }

    /**
     * The data segments in use, read in place.
     *
     * @return this descriptor's segments, the same object on every call.
     */
    public DataSegments segments()
    {
        return segments;
    }

    /** {@return the data segments this descriptor has room for} */
    public int maxSegments()
    {
        return maxSegments;
    }

    /**
     * Clears every field except the user data, ready to describe a new operation.
     *
     * @return this descriptor.
     * @throws IllegalStateException if the descriptor is posted.
     */
    public Descriptor reset()
    {
        checkNotPosted();
        DescriptorLayout.clearFields(base, address);
        return this;
    }

    /**
     * Describes a Send (on a send queue) or a receive buffer (on a receive queue).
     *
     * @return this descriptor.
     */
    public Descriptor send()
    {
        return op(OP_SEND);
    }

    /**
     * Describes an RDMA Write of the data segments to {@code remoteAddress} in the peer's region.
     *
     * @param remoteHandle  memory handle of the peer's region.
     * @param remoteAddress offset into that region.
     * @return this descriptor.
     */
    public Descriptor rdmaWrite(final int remoteHandle, final long remoteAddress)
    {
        return op(OP_RDMA_WRITE).remote(remoteHandle, remoteAddress);
    }

    /**
     * Describes an RDMA Read from {@code remoteAddress} in the peer's region into the data segments.
     *
     * @param remoteHandle  memory handle of the peer's region.
     * @param remoteAddress offset into that region.
     * @return this descriptor.
     */
    public Descriptor rdmaRead(final int remoteHandle, final long remoteAddress)
    {
        return op(OP_RDMA_READ).remote(remoteHandle, remoteAddress);
    }

    /**
     * Describes a remote compare-and-swap on the aligned 8-byte word at {@code remoteAddress}; the word's previous
     * value is written to the first data segment, which must be 8 bytes long.
     *
     * @param remoteHandle  memory handle of the peer's region.
     * @param remoteAddress offset of the word, a multiple of 8.
     * @param expected      value the word must hold for the swap to happen.
     * @param update        value stored if it does.
     * @return this descriptor.
     */
    public Descriptor compareAndSwap(
        final int remoteHandle, final long remoteAddress, final long expected, final long update)
    {
        op(OP_ATOMIC).remote(remoteHandle, remoteAddress);
        UnsafeApi.putLong(base, address + COMPARE_OR_ADD_OFFSET, expected);
        UnsafeApi.putLong(base, address + SWAP_OFFSET, update);
        return this;
    }

    /**
     * Describes a remote fetch-and-add on the aligned 8-byte word at {@code remoteAddress}; the word's previous
     * value is written to the first data segment, which must be 8 bytes long.
     *
     * @param remoteHandle  memory handle of the peer's region.
     * @param remoteAddress offset of the word, a multiple of 8.
     * @param delta         value added to the word.
     * @return this descriptor.
     */
    public Descriptor fetchAndAdd(final int remoteHandle, final long remoteAddress, final long delta)
    {
        op(OP_ATOMIC | CONTROL_ATOMIC_ADD).remote(remoteHandle, remoteAddress);
        UnsafeApi.putLong(base, address + COMPARE_OR_ADD_OFFSET, delta);
        return this;
    }

    /**
     * Attaches immediate data, delivered in the receive descriptor of a Send or an RDMA Write.
     *
     * @param value the 32-bit immediate data.
     * @return this descriptor.
     */
    public Descriptor immediateData(final int value)
    {
        UnsafeApi.putInt(base, address + IMMEDIATE_DATA_OFFSET, value);
        UnsafeApi.putShort(base, address + CONTROL_OFFSET, (short)(control() | CONTROL_IMMEDIATE));
        return this;
    }

    /**
     * Sets or clears the queue fence: a fenced descriptor starts only after every earlier RDMA Read on its queue
     * has completed.
     *
     * @param fence whether to fence.
     * @return this descriptor.
     */
    public Descriptor queueFence(final boolean fence)
    {
        final int control = fence ? control() | CONTROL_QUEUE_FENCE : control() & ~CONTROL_QUEUE_FENCE;
        UnsafeApi.putShort(base, address + CONTROL_OFFSET, (short)control);
        return this;
    }

    /**
     * Appends a data segment naming registered local memory, and adds its length to the descriptor's length.
     *
     * @param region the registered region.
     * @param offset offset into the region.
     * @param length bytes.
     * @return this descriptor.
     * @throws IllegalStateException if every segment is already in use.
     */
    public Descriptor addSegment(final MemoryRegion region, final long offset, final int length)
    {
        return addSegment(region.handle(), offset, length);
    }

    /**
     * Appends a data segment by memory handle, and adds its length to the descriptor's length.
     *
     * @param handle  memory handle of a local region.
     * @param address offset into the region.
     * @param length  bytes.
     * @return this descriptor.
     * @throws IllegalStateException if every segment is already in use.
     */
    public Descriptor addSegment(final int handle, final long address, final int length)
    {
        segments.add(handle, address, length);
        return this;
    }

    /**
     * The consumer's 64-bit cookie; the NIC never reads or changes it.
     *
     * @return the user data.
     */
    public long userData()
    {
        return UnsafeApi.getLong(base, address + USER_DATA_OFFSET);
    }

    /**
     * Sets the consumer's 64-bit cookie, e.g. to find the buffer a completed receive describes.
     *
     * @param value the user data.
     * @return this descriptor.
     */
    public Descriptor userData(final long value)
    {
        UnsafeApi.putLong(base, address + USER_DATA_OFFSET, value);
        return this;
    }

    /**
     * The control field: operation, immediate, queue-fence and atomic bits.
     *
     * @return the control field.
     */
    public int control()
    {
        return UnsafeApi.getShort(base, address + CONTROL_OFFSET) & 0xFFFF;
    }

    /**
     * The operation: one of {@link DescriptorLayout#OP_SEND}, {@code OP_RDMA_WRITE}, {@code OP_RDMA_READ},
     * {@code OP_ATOMIC}.
     *
     * @return the operation.
     */
    public int operation()
    {
        return control() & CONTROL_OP_MASK;
    }

    /**
     * Whether the control field asks for immediate data to be sent.
     *
     * @return true if immediate data is attached.
     */
    public boolean hasImmediateData()
    {
        return (control() & CONTROL_IMMEDIATE) != 0;
    }

    /**
     * The immediate data: as posted on a send queue, as received on a completed receive descriptor.
     *
     * @return the 32-bit immediate data.
     */
    public int immediateData()
    {
        return UnsafeApi.getInt(base, address + IMMEDIATE_DATA_OFFSET);
    }

    /**
     * The length: the bytes to transfer when posted, the bytes transferred once completed.
     *
     * @return the length in bytes.
     */
    public int length()
    {
        return UnsafeApi.getInt(base, address + LENGTH_OFFSET);
    }

    /**
     * Overrides the length the segments added up to.
     *
     * @param length the length in bytes.
     * @return this descriptor.
     */
    public Descriptor length(final int length)
    {
        UnsafeApi.putInt(base, address + LENGTH_OFFSET, length);
        return this;
    }

    /**
     * The status word, read with acquire semantics; 0 while the NIC owns the descriptor.
     *
     * @return the status bits of {@link DescriptorStatus}.
     */
    public int status()
    {
        return UnsafeApi.getIntVolatile(base, address + STATUS_OFFSET);
    }

    /** {@return whether the descriptor has completed, with or without an error} */
    public boolean isDone()
    {
        return DescriptorStatus.isDone(status());
    }

    /** {@return whether the descriptor completed with an error (any error bit set)} */
    public boolean isError()
    {
        return DescriptorStatus.isError(status());
    }

    /**
     * Remote memory handle of the address segment.
     *
     * @return the peer's memory handle.
     */
    public int remoteHandle()
    {
        return UnsafeApi.getInt(base, address + REMOTE_HANDLE_OFFSET);
    }

    /**
     * Remote address (region offset) of the address segment.
     *
     * @return the offset into the peer's region.
     */
    public long remoteAddress()
    {
        return UnsafeApi.getLong(base, address + REMOTE_ADDRESS_OFFSET);
    }

    /** {@return the first atomic operand: the compare value of compare-and-swap, the addend of fetch-and-add} */
    public long compareOrAdd()
    {
        return UnsafeApi.getLong(base, address + COMPARE_OR_ADD_OFFSET);
    }

    /** {@return the second atomic operand: the swap value of compare-and-swap} */
    public long swapValue()
    {
        return UnsafeApi.getLong(base, address + SWAP_OFFSET);
    }

    /**
     * Whether the NIC owns this descriptor: posted and not yet returned by a done or wait call.
     *
     * @return true while posted.
     */
    public boolean isPosted()
    {
        return posted;
    }

    /** Takes ownership for the NIC; false if another post took it first. Clears the status word. */
    boolean claim()
    {
        if (!POSTED.compareAndSet(this, false, true))
        {
            return false;
        }
        UnsafeApi.putInt(base, address + STATUS_OFFSET, 0);
        return true;
    }

    /** Returns ownership to the consumer. */
    void release()
    {
        // a release store: the consumer's next post claims with a compare-and-set, which orders itself
        POSTED.setRelease(this, false);
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder("Descriptor{op=").append(operation())
            .append(", control=0x").append(Integer.toHexString(control()))
            .append(", length=").append(length())
            .append(", immediate=").append(immediateData())
            .append(", status=").append(DescriptorStatus.toString(status()))
            .append(", remote=").append(remoteHandle()).append('@').append(remoteAddress())
            .append(", segments=[");
        return segments.appendTo(sb).append("]}").toString();
    }

    private Descriptor op(final int op)
    {
        final int control = control() & ~(CONTROL_OP_MASK | CONTROL_ATOMIC_ADD);
        UnsafeApi.putShort(base, address + CONTROL_OFFSET, (short)(control | op));
        return this;
    }

    private Descriptor remote(final int remoteHandle, final long remoteAddress)
    {
        UnsafeApi.putInt(base, address + REMOTE_HANDLE_OFFSET, remoteHandle);
        UnsafeApi.putLong(base, address + REMOTE_ADDRESS_OFFSET, remoteAddress);
        return this;
    }

    private void checkNotPosted()
    {
        if (posted)
        {
            throw new IllegalStateException("descriptor is posted; wait for it to complete before reusing it");
        }
    }
}
