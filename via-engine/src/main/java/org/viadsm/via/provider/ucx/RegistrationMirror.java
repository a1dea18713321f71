package org.viadsm.via.provider.ucx;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpMemory;
import org.openucx.jucx.ucp.UcpRemoteKey;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.engine.CheckedRegion;
import org.viadsm.via.engine.RegistrationLayout;
import org.viadsm.via.engine.RegistrationTable;

/**
 * An initiator's copy of the registration table of the NIC at the other end of one connection, kept current by
 * that NIC: it writes every registration and deregistration into this memory with one-sided puts and a flush
 * before its {@code registerMemory} or {@code deregisterMemory} returns ({@link MirrorPublisher}). So RDMA Write,
 * RDMA Read and atomics are checked here, at the initiator, exactly as the shm provider checks them against the
 * target's own table, without a round trip and without a thread of the target; on RDMA hardware UCX's remote keys
 * bound them to the target's allocations as well.
 * <p>
 * Layout, in memory allocated by UCX: the table, in {@link RegistrationLayout} entries whose location is the
 * region's address in the target process; then one key slot per entry: the packed remote key of the allocation
 * holding the region (length, then bytes).
 * <p>
 * <b>Note:</b> not thread-safe; used under the lock of its connection.
 */
final class RegistrationMirror implements AutoCloseable
{
    static final int KEY_SLOT_LENGTH = 256;
    static final int MAX_KEY_LENGTH = KEY_SLOT_LENGTH - 8;

    private final UcpMemory memory;
    private final int capacity;
    private final RegistrationTable table;
    private final UnsafeBuffer keys;
    private final byte[] packedKey;
    private final UcpRemoteKey[] remoteKeys;
    private final int[] keyGenerations;
    // the registration checked last, its location and key: the next operation on it checks its generation alone
    private final CheckedRegion last = new CheckedRegion();
    private long lastBase;
    private long lastKey;
    private long remoteAddress;
    private long remoteKey;
    private boolean closed;

    RegistrationMirror(final UcxTransport nic, final int capacity)
    {
        this.capacity = capacity;
        final long tableLength = (long)capacity * RegistrationLayout.ENTRY_LENGTH;
        this.memory = nic.memory().map(tableLength + (long)capacity * KEY_SLOT_LENGTH);
        final UnsafeBuffer all = new UnsafeBuffer(memory.getAddress(), (int)memory.getLength());
        all.setMemory(0, (int)tableLength, (byte)0);
        this.table = new RegistrationTable(all, 0, capacity);
        this.keys = new UnsafeBuffer(memory.getAddress() + tableLength, capacity * KEY_SLOT_LENGTH);
        final ByteBuffer key = memory.getRemoteKeyBuffer();
        this.packedKey = new byte[key.remaining()];
        key.get(packedKey);
        this.remoteKeys = new UcpRemoteKey[capacity];
        this.keyGenerations = new int[capacity];
    }

    int entries()
    {
        return capacity;
    }

    long address()
    {
        return memory.getAddress();
    }

    byte[] packedKey()
    {
        return packedKey.clone();
    }

    /**
     * Checks an operation on the target's memory like the target's own table would, and on success makes the
     * target's address and the remote key's handle available.
     *
     * @return a {@link RegistrationTable} check outcome, {@code CHECK_OK} on success.
     */
    int resolve(final UcpEndpoint endpoint, final int handle, final int ptag, final int requiredFlags,
        final long address, final int length)
    {
        if (last.passes(handle, ptag, requiredFlags, address, length))
        {
            remoteAddress = lastBase + address;
            remoteKey = lastKey;
            return RegistrationTable.CHECK_OK;
        }
        return resolveAnew(endpoint, handle, ptag, requiredFlags, address, length);
    }

    /**
     * {@link #resolve} of another registration than the last one's (or of one changed since): the full check, and
     * the registration's remote key, unpacked once per generation.
     */
    private int resolveAnew(final UcpEndpoint endpoint, final int handle, final int ptag, final int requiredFlags,
        final long address, final int length)
    {
        final int check = table.check(handle, ptag, requiredFlags, address, length);
        if (RegistrationTable.CHECK_OK != check)
        {
            return check;
        }
        final int index = table.handleIndex(handle);
        final int generation = table.handleGeneration(handle);
        final long base = table.location(index);
        if (keyGenerations[index] != generation || null == remoteKeys[index])
        {
            final UcpRemoteKey key = unpack(endpoint, index);
            if (null == key || table.generation(index) != generation)
            {
                return RegistrationTable.CHECK_INVALID_HANDLE;
            }
            if (null != remoteKeys[index])
            {
                remoteKeys[index].close();
            }
            remoteKeys[index] = key;
            keyGenerations[index] = generation;
        }
        last.remember(table, handle);
        lastBase = base;
        lastKey = remoteKeys[index].getNativeId();
        remoteAddress = base + address;
        remoteKey = lastKey;
        return RegistrationTable.CHECK_OK;
    }

    /**
     * What an initiator says of an RDMA operation or atomic it refused: the mirror's check outcome, or that the peer
     * VI has RDMA disabled.
     */
    static String describeRefusal(final boolean disabled, final int peerViId, final int check,
        final Descriptor descriptor, final int span, final String peerAddress)
    {
        return (disabled ? "RDMA not enabled on VI " + peerViId : RegistrationTable.describe(check)) + ": handle 0x" +
            Integer.toHexString(descriptor.remoteHandle()) + " address " + descriptor.remoteAddress() + " length " +
            span + " on " + peerAddress;
    }

    /** The mirrored table. */
    RegistrationTable table()
    {
        return table;
    }

    /** The location, in the target process, of the registration the last successful {@link #resolve} passed. */
    long lastBase()
    {
        return lastBase;
    }

    /** The remote key's handle of the registration the last successful {@link #resolve} passed. */
    long lastKey()
    {
        return lastKey;
    }

    long remoteAddress()
    {
        return remoteAddress;
    }

    long remoteKey()
    {
        return remoteKey;
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        for (int i = 0; i < capacity; i++)
        {
            if (null != remoteKeys[i])
            {
                remoteKeys[i].close();
                remoteKeys[i] = null;
            }
        }
        memory.deregister();
    }

    private UcpRemoteKey unpack(final UcpEndpoint endpoint, final int index)
    {
        final int slot = index * KEY_SLOT_LENGTH;
        final int length = keys.getIntVolatile(slot);
        if (length <= 0 || length > MAX_KEY_LENGTH)
        {
            return null;
        }
        final ByteBuffer packed = ByteBuffer.allocateDirect(length);
        keys.getBytes(slot + 8, packed, 0, length);
        try
        {
            return endpoint.unpackRemoteKey(packed);
        }
        catch (final RuntimeException ex)
        {
            return null;
        }
    }
}
