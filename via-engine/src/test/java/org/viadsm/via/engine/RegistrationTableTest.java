package org.viadsm.via.engine;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.viadsm.via.memory.MemoryHandle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
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
        new UnsafeBuffer(BufferUtil.allocateDirectAligned(64 + 5 * RegistrationLayout.ENTRY_LENGTH, 64));
    private final RegistrationTable table = new RegistrationTable(buffer, 64, 5);

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
        final int handle = table.handle(1, 3);
        assertEquals(CHECK_OK, table.check(handle, 7, 0, 0, 100));
        assertEquals(CHECK_OK, table.check(handle, 7, FLAG_RDMA_WRITE, 99, 1));
        assertEquals(CHECK_OK, table.check(handle, 7, FLAG_RDMA_WRITE, 100, 0));
        assertEquals(CHECK_OUT_OF_BOUNDS, table.check(handle, 7, 0, 99, 2));
        assertEquals(CHECK_OUT_OF_BOUNDS, table.check(handle, 7, 0, -1, 1));
        assertEquals(CHECK_OUT_OF_BOUNDS, table.check(handle, 7, 0, 0, -1));
        assertEquals(CHECK_OUT_OF_BOUNDS, table.check(handle, 7, 0, Long.MAX_VALUE, 1));
        assertEquals(CHECK_PTAG_MISMATCH, table.check(handle, 8, 0, 0, 1));
        assertEquals(CHECK_RDMA_READ_DISABLED, table.check(handle, 7, FLAG_RDMA_READ, 0, 1));
        assertEquals(CHECK_INVALID_HANDLE, table.check(table.handle(1, 4), 7, 0, 0, 1));
        assertEquals(CHECK_INVALID_HANDLE, table.check(table.handle(0, 3), 7, 0, 0, 1));
        assertEquals(CHECK_INVALID_HANDLE, table.check(table.handle(6, 3), 7, 0, 0, 1));
        assertEquals(CHECK_INVALID_HANDLE, table.check(MemoryHandle.NULL_HANDLE, 7, 0, 0, 1));
        table.publish(0, 1, 7, FLAG_RDMA_READ, 100, 0, 0);
        assertEquals(CHECK_RDMA_WRITE_DISABLED, table.check(table.handle(0, 1), 7, FLAG_RDMA_WRITE, 0, 1));
    }

    @Test
    void shouldFailRetiredHandleEvenAfterReuse()
    {
        table.publish(1, 3, 7, 0, 100, 0, 0);
        final int old = table.handle(1, 3);
        table.retire(1);
        assertEquals(CHECK_INVALID_HANDLE, table.check(old, 7, 0, 0, 1));
        table.publish(1, table.nextGeneration(3), 7, 0, 100, 0, 0);
        assertEquals(CHECK_INVALID_HANDLE, table.check(old, 7, 0, 0, 1));
        assertEquals(CHECK_OK, table.check(table.handle(1, 4), 7, 0, 0, 1));
        assertEquals("protection tag mismatch", RegistrationTable.describe(CHECK_PTAG_MISMATCH));
    }

    @Test
    void shouldSizeTheIndexFieldToTheTableAndGiveTheGenerationTheRest()
    {
        assertEquals(3, MemoryHandle.indexBits(5));
        assertEquals(12, MemoryHandle.indexBits(4096));
        assertEquals(13, MemoryHandle.indexBits(4097));
        assertEquals(1, MemoryHandle.indexBits(1));
        assertEquals(20, MemoryHandle.indexBits(MemoryHandle.MAX_ENTRIES));
        final int handle = MemoryHandle.handle(4095, (1 << 20) - 1, 12);
        assertEquals(4095, MemoryHandle.index(handle, 12));
        assertEquals((1 << 20) - 1, MemoryHandle.generation(handle, 12));
        assertEquals(1, MemoryHandle.nextGeneration((1 << 20) - 1, 12));
        assertEquals(1, MemoryHandle.nextGeneration(-1, 1));
        assertEquals(1, MemoryHandle.generation(MemoryHandle.handle(0, 0, 1), 1));
        assertEquals(Integer.MAX_VALUE, MemoryHandle.generation(MemoryHandle.handle(0, -1, 1), 1));
        assertNotEquals(MemoryHandle.NULL_HANDLE, MemoryHandle.handle(0, 1 << 20, 12));
        assertEquals(5, table.handleIndex(table.handle(5, 9)));
        assertEquals(9, table.handleGeneration(table.handle(5, 9)));
        assertThrows(IllegalArgumentException.class, () -> MemoryHandle.indexBits(0));
        assertThrows(IllegalArgumentException.class, () -> MemoryHandle.indexBits(MemoryHandle.MAX_ENTRIES + 1));
    }

    @Test
    void shouldTellWhetherAnEntryStillDescribesTheSameBytes()
    {
        table.publish(2, 7, 1, 0, 4096, 3, 8192);
        assertTrue(table.describes(2, 7, 3, 8192, 4096));
        assertFalse(table.describes(2, 6, 3, 8192, 4096));
        assertFalse(table.describes(2, 7, 4, 8192, 4096));
        assertFalse(table.describes(2, 7, 3, 0, 4096));
        assertFalse(table.describes(2, 7, 3, 8192, 8192));
        table.retire(2);
        assertFalse(table.describes(2, 7, 3, 8192, 4096));
    }
}
