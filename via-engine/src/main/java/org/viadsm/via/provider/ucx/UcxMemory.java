package org.viadsm.via.provider.ucx;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.agrona.concurrent.UnsafeBuffer;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpMemMapParams;
import org.openucx.jucx.ucp.UcpMemory;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

/**
 * The memory of a ucx NIC: allocated by UCX, which peers reach one-sided (registered JVM memory would be emulated
 * through messages over shared memory, needing the target's progress), with each allocation's packed remote key,
 * which the NIC publishes to its peers' mirrors.
 * <p>
 * <b>Note:</b> thread-safe.
 */
final class UcxMemory implements AutoCloseable
{
    private final UcpContext context;
    private final Map<Long, UcpMemory> allocations = new ConcurrentHashMap<>();
    private final Map<Long, byte[]> keys = new ConcurrentHashMap<>();

    UcxMemory(final UcpContext context)
    {
        this.context = context;
    }

    /**
     * Maps memory that UCX allocates, owned by the caller.
     */
    UcpMemory map(final long length)
    {
        return context.memoryMap(new UcpMemMapParams().allocate().setLength(length));
    }

    /**
     * Allocates an application's memory, zeroed all through, as {@code Nic.allocateMemory} promises: UCX does not
     * promise fresh pages. It takes the first method of its {@code ALLOC_PRIO} list that succeeds, by default
     * {@code md:sysv,md:posix,huge,thp,md:*,mmap,heap}: the shared-memory, huge-page and mmap methods give fresh
     * (zero) pages, but {@code thp} (posix_memalign) and {@code heap} (malloc) may give memory the process used before,
     * and they are used where the first ones fail or where {@code UCX_ALLOC_PRIO} names them first. The cost is that
     * every page is touched here: memory of a ucx NIC is not sparse.
     *
     * @throws ViaException if UCX's remote key would not fit a mirror's key slot.
     */
    ByteBuffer allocate(final long allocationId, final int length)
    {
        final UcpMemory memory = map(length);
        final ByteBuffer packed = memory.getRemoteKeyBuffer();
        final byte[] key = new byte[packed.remaining()];
        packed.get(key);
        if (key.length > RegistrationMirror.MAX_KEY_LENGTH)
        {
            memory.deregister();
            throw new ViaException(ViaError.ERROR_RESOURCE, "UCX remote key of " + key.length + " bytes exceeds " +
                RegistrationMirror.MAX_KEY_LENGTH);
        }
        allocations.put(allocationId, memory);
        keys.put(allocationId, key);
        final ByteBuffer buffer = UcxUtils.getByteBufferView(memory.getAddress(), length);
        new UnsafeBuffer(buffer).setMemory(0, length, (byte)0);
        return buffer;
    }

    void free(final long allocationId)
    {
        keys.remove(allocationId);
        final UcpMemory memory = allocations.remove(allocationId);
        if (null != memory)
        {
            memory.deregister();
        }
    }

    /**
     * An allocation's packed remote key.
     *
     * @return the key, or null if there is no such allocation.
     */
    byte[] packedKey(final long allocationId)
    {
        return keys.get(allocationId);
    }

    /**
     * An allocation's address in this process.
     *
     * @return the address, or 0 if there is no such allocation.
     */
    long address(final long allocationId)
    {
        final UcpMemory memory = allocations.get(allocationId);
        return null == memory ? 0 : memory.getAddress();
    }

    @Override
    public void close()
    {
        for (final UcpMemory memory : allocations.values())
        {
            memory.deregister();
        }
        allocations.clear();
        keys.clear();
    }
}
