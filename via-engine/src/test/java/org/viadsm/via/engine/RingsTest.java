package org.viadsm.via.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.AsyncError;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RingsTest
{
    private final NicGeometry geometry = NicGeometryTest.small();
    private final UnsafeBuffer area = new UnsafeBuffer(BufferUtil.allocateDirectAligned(geometry.areaLength(), 64));

    @Test
    void errorRingShouldCarryErrorViAndDetailInOrder()
    {
        final ErrorRing ring = new ErrorRing(area, geometry);
        assertTrue(ring.isEmpty());
        assertTrue(ring.offer(AsyncError.CONNECTION_LOST, 3, "peer died"));
        assertTrue(ring.offer(AsyncError.CATASTROPHIC, -1, "x".repeat(2000)));
        assertFalse(ring.isEmpty());
        final List<String> seen = new ArrayList<>();
        assertEquals(2, ring.drain((error, vi, detail) -> seen.add(error + "/" + vi + "/" + detail.length())));
        assertEquals(List.of("CONNECTION_LOST/3/9", "CATASTROPHIC/-1/" + (128 - 8)), seen);
        assertTrue(ring.isEmpty());
        int offered = 0;
        while (ring.offer(AsyncError.VI_OVERRUN, 0, "full?"))
        {
            offered++;
        }
        assertTrue(offered > 10 && offered < 1024 / 8);
    }

    @Test
    void errorRingShouldSeeRecordsQueuedAndTakenThroughAnotherMappingOfTheArea()
    {
        final ErrorRing ring = new ErrorRing(area, geometry);
        final ErrorRing other = new ErrorRing(area, geometry);
        final List<String> seen = new ArrayList<>();
        for (int round = 0; round < 3; round++)
        {
            assertTrue(ring.isEmpty(), "round " + round);
            assertTrue(other.offer(AsyncError.CONNECTION_LOST, round, "round " + round));
            assertFalse(ring.isEmpty(), "queued through the other, round " + round);
            assertFalse(ring.isEmpty(), "still queued, round " + round);
            // taken by the other: this ring last saw the consumer position before the record
            assertEquals(1, other.drain((error, vi, detail) -> seen.add(vi + " " + detail)));
            assertTrue(ring.isEmpty(), "taken by the other, round " + round);
            assertTrue(ring.offer(AsyncError.CATASTROPHIC, -1, "own " + round));
            assertFalse(ring.isEmpty());
            assertEquals(1, ring.drain((error, vi, detail) -> seen.add(vi + " " + detail)));
        }
        assertEquals(List.of("0 round 0", "-1 own 0", "1 round 1", "-1 own 1", "2 round 2", "-1 own 2"), seen);
    }

    @Test
    void requestRingShouldCarryConnectMessages()
    {
        final RequestRing ring = new RequestRing(area, geometry);
        assertTrue(ring.offer(ConnectMessageFlyweight.TYPE_PEER_REQUEST, 0x1234L, "shm:node-1", 7, 42, -9L, 4, 4096,
            RegistrationLayout.FLAG_RDMA_READ));
        final List<String> seen = new ArrayList<>();
        ring.drain((type, m) -> seen.add(type + " " + Long.toHexString(m.nicId()) + " " + m.address() + " " +
            m.viId() + " " + m.sequence() + " " + m.discriminator() + " " + m.reliability() + " " + m.maxTransfer() +
            " " + m.flags()));
        assertEquals(List.of("2 1234 shm:node-1 7 42 -9 4 4096 2"), seen);
    }

    @Test
    void connectWordShouldPackSequencePeerAndResult()
    {
        final long word = ViRecordLayout.connectWord(-5, 65535, ViRecordLayout.RESULT_NO_MATCH);
        assertEquals(-5, ViRecordLayout.connectSequence(word));
        assertEquals(65535, ViRecordLayout.connectPeerVi(word));
        assertEquals(ViRecordLayout.RESULT_NO_MATCH, ViRecordLayout.connectResult(word));
        final ViRecord record = new ViRecord(area, geometry, 0);
        record.initialize(1, 4, 3, 100, -1, -1);
        assertTrue(record.beginConnect(9));
        assertFalse(record.beginConnect(10));
        assertFalse(record.settle(8, 1, ViRecordLayout.RESULT_ACCEPTED));
        assertTrue(record.settle(9, 2, ViRecordLayout.RESULT_ACCEPTED));
        assertFalse(record.settle(9, 0, ViRecordLayout.RESULT_ABANDONED));
        assertTrue(record.establish(ViRecordLayout.STATE_CONNECT_PENDING, 77, 2, 50));
        assertTrue(record.isConnectedTo(77, 2));
        assertFalse(record.isConnectedTo(77, 3));
        assertEquals(50, record.effectiveMaxTransfer());
    }

    /** Claims a record in one of the area's Agrona rings and never commits it, as a producer killed there does. */
    private void claimAndDie(final int offset, final int length)
    {
        assertTrue(new ManyToOneRingBuffer(new UnsafeBuffer(area, offset, length)).tryClaim(1, 16) > 0);
    }

    @Test
    @Timeout(30)
    void errorRingShouldBeUnblockedWhenAProducerDiedBetweenClaimAndCommit()
    {
        final ErrorRing ring = new ErrorRing(area, geometry);
        claimAndDie(geometry.errorRingOffset(), geometry.errorRingLength());
        assertTrue(ring.offer(AsyncError.CONNECTION_LOST, 2, "after the dead producer"));
        final List<String> seen = new ArrayList<>();
        final long stallNs = TimeUnit.MILLISECONDS.toNanos(20);
        assertEquals(0, ring.drain((error, vi, detail) -> seen.add(detail)));
        assertFalse(ring.unblockIfStalled(System.nanoTime(), stallNs), "not stalled long enough yet");
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!ring.unblockIfStalled(System.nanoTime(), stallNs) && System.nanoTime() - deadlineNs < 0)
        {
            Thread.onSpinWait();
        }
        assertEquals(1, ring.drain((error, vi, detail) -> seen.add(detail)));
        assertEquals(List.of("after the dead producer"), seen);
        assertTrue(ring.isEmpty());
    }

    @Test
    @Timeout(30)
    void requestRingShouldBeUnblockedWhenAProducerDiedBetweenClaimAndCommit()
    {
        final RequestRing ring = new RequestRing(area, geometry);
        claimAndDie(geometry.requestRingOffset(), geometry.requestRingLength());
        assertTrue(ring.offer(ConnectMessageFlyweight.TYPE_PEER_REQUEST, 5L, "shm:x", 1, 2, 3L, 4, 4096, 0));
        final List<String> seen = new ArrayList<>();
        final long stallNs = TimeUnit.MILLISECONDS.toNanos(20);
        assertEquals(0, ring.drain((type, m) -> seen.add(m.address())));
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!ring.unblockIfStalled(System.nanoTime(), stallNs) && System.nanoTime() - deadlineNs < 0)
        {
            Thread.onSpinWait();
        }
        assertEquals(1, ring.drain((type, m) -> seen.add(m.address())));
        assertEquals(List.of("shm:x"), seen);
    }
}
