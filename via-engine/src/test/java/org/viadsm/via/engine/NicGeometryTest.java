package org.viadsm.via.engine;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NicGeometryTest
{
    static NicGeometry small()
    {
        return new NicGeometry(4, 8, 4, 2, 8, 16, 1024, 1024);
    }

    @Test
    void shouldPlaceSectionsAlignedAndApart()
    {
        final NicGeometry g = small();
        assertEquals(NicLayout.HEADER_LENGTH, g.registrationOffset());
        assertTrue(g.viRecordOffset(0) >= g.registrationOffset() + 16 * RegistrationLayout.ENTRY_LENGTH);
        assertEquals(0, g.viRecordOffset(0) % NicLayout.SECTION_ALIGNMENT);
        assertEquals(g.viRecordLength(), g.viRecordOffset(1) - g.viRecordOffset(0));
        assertEquals(192 + 8 * 128, g.viRecordLength());
        assertTrue(g.cqOffset(0) >= g.viRecordOffset(3) + g.viRecordLength());
        assertEquals(CqLayout.length(8), g.cqLength());
        assertTrue(g.errorRingOffset() >= g.cqOffset(1) + g.cqLength());
        assertTrue(g.requestRingOffset() >= g.errorRingOffset() + g.errorRingLength());
        assertTrue(g.areaLength() >= g.requestRingOffset() + g.requestRingLength());
        assertEquals(0, g.areaLength() % 4096);
    }

    @Test
    void shouldRoundTripThroughTheHeader()
    {
        final NicGeometry g = small();
        final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(g.areaLength(), 64));
        final NicArea area = NicArea.create(buffer, g, 77, 123, 456);
        assertEquals(NicLayout.STATE_OPEN, area.state());
        final NicArea attached = NicArea.attach(buffer, "test");
        assertEquals(77, attached.nicId());
        assertEquals(123, attached.ownerPid());
        assertEquals(456, attached.ownerStartMs());
        assertEquals(g.toString(), attached.geometry().toString());
        area.markClosed();
        final ViaException ex = assertThrows(ViaException.class, () -> NicArea.attach(buffer, "test"));
        assertEquals(ViaError.NOT_REACHABLE, ex.error());
    }

    @Test
    void shouldRejectOutOfRangeSizes()
    {
        assertThrows(IllegalArgumentException.class, () -> new NicGeometry(0, 8, 4, 2, 8, 16, 1024, 1024));
        assertThrows(IllegalArgumentException.class, () -> new NicGeometry(4, 7, 4, 2, 8, 16, 1024, 1024));
        assertThrows(IllegalArgumentException.class, () -> new NicGeometry(4, 8, 4, 2, 6, 16, 1024, 1024));
        assertThrows(IllegalArgumentException.class, () -> new NicGeometry(4, 8, 4, 2, 8, 16, 1000, 1024));
        assertThrows(IllegalArgumentException.class,
            () -> new NicGeometry(60000, 1 << 16, 256, 2, 8, 16, 1024, 1024));
    }
}
