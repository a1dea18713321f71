package org.viadsm.via.internal;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.viadsm.via.descriptor.Descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The span is checked once, when made, and then reads and writes the buffer's memory at the offsets given, with
 * the buffer's own layout; it stays on the memory it was made over. Indexes a user passes keep their checks.
 */
class CheckedSpanTest
{
    @Test
    void shouldRefuseASpanOutsideTheBuffer()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
        final IllegalArgumentException tooLong =
            assertThrows(IllegalArgumentException.class, () -> new CheckedSpan(buffer, 32, 40));
        assertEquals("span [32, 72) is outside the buffer of 64 bytes", tooLong.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new CheckedSpan(buffer, -8, 8));
        assertThrows(IllegalArgumentException.class, () -> new CheckedSpan(buffer, 0, -1));
        assertEquals(64, new CheckedSpan(buffer, 0, 64).capacity());
    }

    @Test
    void shouldReadAndWriteWhatTheBufferSees()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
        final CheckedSpan span = new CheckedSpan(buffer, 16, 48);
        span.putInt(16, 7);
        span.putLong(24, 1L << 40);
        span.putShort(20, (short)-2);
        span.putIntRelease(32, 9);
        span.putLongRelease(40, 11L);
        span.putIntVolatile(48, 13);
        span.putLongVolatile(56, 15L);
        assertEquals(7, buffer.getInt(16));
        assertEquals(1L << 40, buffer.getLong(24));
        assertEquals((short)-2, buffer.getShort(20));
        assertEquals(9, buffer.getInt(32));
        assertEquals(11L, buffer.getLong(40));
        assertEquals(13, buffer.getInt(48));
        assertEquals(15L, buffer.getLong(56));
        buffer.putInt(16, 70);
        buffer.putLong(24, 80L);
        assertEquals(70, span.getInt(16));
        assertEquals(80L, span.getLong(24));
        assertEquals(70, span.getIntAcquire(16));
        assertEquals(70, span.getIntVolatile(16));
        assertEquals(80L, span.getLongAcquire(24));
        assertEquals(80L, span.getLongVolatile(24));
        assertEquals((short)-2, span.getShort(20));
        assertFalse(span.compareAndSetInt(16, 1, 2));
        assertTrue(span.compareAndSetInt(16, 70, 71));
        assertEquals(71, buffer.getInt(16));
        assertFalse(span.compareAndSetLong(24, 1L, 2L));
        assertTrue(span.compareAndSetLong(24, 80L, 81L));
        assertEquals(81L, buffer.getLong(24));
    }

    @Test
    void shouldStayOnTheMemoryItWasMadeOver()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
        final UnsafeBuffer first = new UnsafeBuffer(buffer.addressOffset(), 64);
        final CheckedSpan span = new CheckedSpan(buffer, 0, 64);
        buffer.wrap(BufferUtil.allocateDirectAligned(8, 64));
        span.putInt(32, 5);
        assertEquals(5, first.getInt(32));
    }

    @Test
    void shouldKeepCheckingTheSegmentIndexesUsersPass()
    {
        final Descriptor descriptor = Descriptor.allocate(1);
        descriptor.reset().send();
        assertEquals(0, descriptor.segments().count());
        assertThrows(IndexOutOfBoundsException.class, () -> descriptor.segments().handle(1000));
    }
}
