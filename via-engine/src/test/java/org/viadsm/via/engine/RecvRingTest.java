package org.viadsm.via.engine;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecvRingTest
{
    private final NicGeometry geometry = NicGeometryTest.small();
    private final UnsafeBuffer area = new UnsafeBuffer(BufferUtil.allocateDirectAligned(geometry.areaLength(), 64));
    private final ViRecord record = new ViRecord(area, geometry, 1);
    private final RecvRing ring = new RecvRing(area, geometry, 1);

    @Test
    void shouldPostClaimAndCompleteInOrder()
    {
        record.initialize(3, 4, 0, 1000, -1, -1);
        assertEquals(-1, ring.claim());
        ring.post(0, Descriptor.allocate(2).reset().send().addSegment(0x10001, 8, 16).addSegment(0x10002, 0, 4));
        ring.post(1, Descriptor.allocate(1).reset().send().addSegment(0x10001, 64, 32));
        assertEquals(2, record.recvProducerIndex());
        assertEquals(2, ring.segmentCount(0));
        assertEquals(20, ring.entryCapacity(0));
        assertEquals(0x10002, ring.segmentHandle(0, 1));
        assertEquals(8, ring.segmentAddress(0, 0));
        assertEquals(32, ring.segmentLength(1, 0));

        assertEquals(0, ring.claim());
        assertEquals(0, ring.status(0));
        ring.complete(0, DescriptorStatus.DONE | DescriptorStatus.OP_RECEIVE, 12, 99);
        assertEquals(DescriptorStatus.DONE | DescriptorStatus.OP_RECEIVE, ring.status(0));
        assertEquals(12, ring.length(0));
        assertEquals(99, ring.immediate(0));
        assertEquals(1, ring.claim());
        assertEquals(-1, ring.claim());
        assertTrue(ring.forceComplete(1, RecvCompletion.FLUSHED_STATUS));
        assertFalse(ring.forceComplete(1, DescriptorStatus.DONE));
        assertEquals(RecvCompletion.FLUSHED_STATUS, ring.status(1));
    }

    @Test
    void shouldWrapAroundAndKeepOversizedSegmentCountForFormatError()
    {
        record.initialize(3, 4, 0, 1000, -1, -1);
        final Descriptor d = Descriptor.allocate(1).reset().send().addSegment(0x10001, 0, 8);
        for (long i = 0; i < 20; i++)
        {
            ring.post(i, d);
            assertEquals(i, ring.claim());
            ring.complete(i, DescriptorStatus.DONE, (int)i, 0);
            assertEquals(i, ring.length(i));
        }
        final Descriptor wide = Descriptor.allocate(5).reset().send();
        for (int i = 0; i < 5; i++)
        {
            wide.addSegment(0x10001, i, 1);
        }
        ring.post(20, wide);
        assertEquals(5, ring.segmentCount(20));
        assertEquals(0, ring.entryCapacity(20));
    }

    @Test
    void shouldRestartEmptyWhenRecordIsReused()
    {
        record.initialize(3, 4, 0, 1000, -1, -1);
        ring.post(0, Descriptor.allocate(1).reset().send());
        record.initialize(3, 4, 0, 1000, -1, -1);
        assertEquals(1, record.recvConsumerIndex());
        assertEquals(-1, ring.claim());
        assertEquals(ViRecordLayout.STATE_IDLE, record.state());
        assertFalse(record.isConnectedTo(0, -1));
    }

    @Test
    void forceCompleteShouldLeaveAnEntryPostedAgainInTheSameSlot()
    {
        record.initialize(3, 4, 0, 1000, -1, -1);
        final Descriptor d = Descriptor.allocate(1).reset().send().addSegment(0x10001, 0, 8);
        final int depth = ring.capacity();
        for (long i = 0; i < depth; i++)
        {
            ring.post(i, d);
        }
        assertEquals(0, ring.claim());
        ring.complete(0, DescriptorStatus.DONE | DescriptorStatus.OP_RECEIVE, 8, 0);
        ring.post(depth, d);
        assertFalse(ring.forceComplete(0, RecvCompletion.FLUSHED_STATUS), "slot 0 now holds entry " + depth);
        assertEquals(0, ring.status(depth));
        assertEquals(1, ring.claim());
        assertTrue(ring.forceComplete(1, RecvCompletion.FLUSHED_STATUS));
    }

    @Test
    void claimShouldRefuseTheSenderOfAnEarlierConnection()
    {
        record.initialize(3, 4, 0, 1000, -1, -1);
        record.beginConnect(1);
        record.establish(ViRecordLayout.STATE_CONNECT_PENDING, 5, 0, 100);
        final long first = record.recvEpoch();
        ring.post(0, Descriptor.allocate(1).reset().send());
        ring.post(1, Descriptor.allocate(1).reset().send());
        assertEquals(0, ring.claim(first));
        record.state(ViRecordLayout.STATE_IDLE);
        record.beginConnect(2);
        record.establish(ViRecordLayout.STATE_CONNECT_PENDING, 6, 0, 100);
        assertEquals(RecvRing.EPOCH_MISMATCH, ring.claim(first));
        assertEquals(1, record.recvConsumerIndex());
        assertEquals(1, ring.claim(record.recvEpoch()));
        assertEquals(-1, ring.claim(record.recvEpoch()));
    }
}
