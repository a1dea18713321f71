package org.viadsm.via.engine;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.viadsm.via.memory.MemoryHandle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.viadsm.via.engine.RegistrationLayout.FLAG_RDMA_READ;
import static org.viadsm.via.engine.RegistrationLayout.FLAG_RDMA_WRITE;
import static org.viadsm.via.engine.RegistrationTable.CHECK_INVALID_HANDLE;
import static org.viadsm.via.engine.RegistrationTable.CHECK_OK;
import static org.viadsm.via.engine.RegistrationTable.CHECK_OUT_OF_BOUNDS;
import static org.viadsm.via.engine.RegistrationTable.CHECK_PTAG_MISMATCH;
import static org.viadsm.via.engine.RegistrationTable.CHECK_RDMA_READ_DISABLED;
import static org.viadsm.via.engine.RegistrationTable.CHECK_RDMA_WRITE_DISABLED;

class RegistrationTableTest
{
    private final UnsafeBuffer buffer =
        new UnsafeBuffer(BufferUtil.allocateDirectAligned(64 + 4 * RegistrationLayout.ENTRY_LENGTH, 64));
    private final RegistrationTable table = new RegistrationTable(buffer, 64, 4);

    @Test
    void shouldPublishEntryWithGenerationLast()
    {
        table.publish(2, 5, 9, FLAG_RDMA_READ, 1000, 42, 4096);
        assertEquals(5, buffer.getInt(64 + 2 * 32 + RegistrationLayout.GENERATION_OFFSET));
        assertEquals(9, table.ptag(2));
        assertEquals(FLAG_RDMA_READ, table.flags(2));
        assertEquals(1000, table.length(2));
        assertEquals(42, table.allocationId(2));
        assertEquals(4096, table.location(2));
        assertEquals(5, table.generation(2));
    }

    @Test
    void shouldCheckHandlePtagEnableBitsAndBounds()
    {
        table.publish(1, 3, 7, FLAG_RDMA_WRITE, 100, 0, 0);
        final int handle = MemoryHandle.handle(1, 3);
        assertEquals(CHECK_OK, table.check(handle, 7, 0, 0, 100));
        assertEquals(CHECK_OK, table.check(handle, 7, FLAG_RDMA_WRITE, 99, 1));
        assertEquals(CHECK_OK, table.check(handle, 7, FLAG_RDMA_WRITE, 100, 0));
        assertEquals(CHECK_OUT_OF_BOUNDS, table.check(handle, 7, 0, 99, 2));
        assertEquals(CHECK_OUT_OF_BOUNDS, table.check(handle, 7, 0, -1, 1));
        assertEquals(CHECK_OUT_OF_BOUNDS, table.check(handle, 7, 0, 0, -1));
        assertEquals(CHECK_OUT_OF_BOUNDS, table.check(handle, 7, 0, Long.MAX_VALUE, 1));
        assertEquals(CHECK_PTAG_MISMATCH, table.check(handle, 8, 0, 0, 1));
        assertEquals(CHECK_RDMA_READ_DISABLED, table.check(handle, 7, FLAG_RDMA_READ, 0, 1));
        assertEquals(CHECK_INVALID_HANDLE, table.check(MemoryHandle.handle(1, 4), 7, 0, 0, 1));
        assertEquals(CHECK_INVALID_HANDLE, table.check(MemoryHandle.handle(0, 3), 7, 0, 0, 1));
        assertEquals(CHECK_INVALID_HANDLE, table.check(MemoryHandle.handle(9, 3), 7, 0, 0, 1));
        assertEquals(CHECK_INVALID_HANDLE, table.check(MemoryHandle.NULL_HANDLE, 7, 0, 0, 1));
        table.publish(0, 1, 7, FLAG_RDMA_READ, 100, 0, 0);
        assertEquals(CHECK_RDMA_WRITE_DISABLED, table.check(MemoryHandle.handle(0, 1), 7, FLAG_RDMA_WRITE, 0, 1));
    }

    @Test
    void shouldFailRetiredHandleEvenAfterReuse()
    {
        table.publish(1, 3, 7, 0, 100, 0, 0);
        final int old = MemoryHandle.handle(1, 3);
        table.retire(1);
        assertEquals(CHECK_INVALID_HANDLE, table.check(old, 7, 0, 0, 1));
        table.publish(1, MemoryHandle.nextGeneration(3), 7, 0, 100, 0, 0);
        assertEquals(CHECK_INVALID_HANDLE, table.check(old, 7, 0, 0, 1));
        assertEquals(CHECK_OK, table.check(MemoryHandle.handle(1, 4), 7, 0, 0, 1));
        assertEquals("protection tag mismatch", RegistrationTable.describe(CHECK_PTAG_MISMATCH));
    }
}
