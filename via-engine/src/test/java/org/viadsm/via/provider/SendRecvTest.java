package org.viadsm.via.provider;

import java.util.List;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.via.AsyncError;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorLayout;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.viadsm.via.descriptor.DescriptorStatus.DONE;
import static org.viadsm.via.descriptor.DescriptorStatus.OP_RECEIVE;
import static org.viadsm.via.descriptor.DescriptorStatus.OP_SEND;

@Timeout(30)
class SendRecvTest extends TwoNodes
{
    private static final long T = Providers.TIMEOUT_NS;

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldScatterAndGatherWithImmediateData(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final Descriptor recv = Descriptor.allocate(2).reset().send()
            .addSegment(pair.b.region, 100, 3).addSegment(pair.b.region, 200, 10);
        pair.viB.postRecv(recv);
        assertNull(pair.viB.recvDone());

        pair.a.region.buffer().putStringWithoutLengthAscii(0, "hello");
        pair.a.region.buffer().putStringWithoutLengthAscii(50, " world");
        final Descriptor send = Descriptor.allocate(2).reset().send()
            .addSegment(pair.a.region, 0, 5).addSegment(pair.a.region, 50, 6).immediateData(42);
        pair.viA.postSend(send);
        assertSame(send, pair.viA.sendWait(T));
        assertEquals(DONE | OP_SEND, send.status());
        assertEquals(11, send.length());

        assertSame(recv, pair.viB.recvWait(T));
        assertEquals(DONE | OP_RECEIVE | DescriptorStatus.IMMEDIATE, recv.status());
        assertEquals(11, recv.length());
        assertEquals(42, recv.immediateData());
        assertEquals("hel", pair.b.region.buffer().getStringWithoutLengthAscii(100, 3));
        assertEquals("lo world", pair.b.region.buffer().getStringWithoutLengthAscii(200, 8));
        assertEquals(0, pair.b.region.buffer().getByte(208));
        assertFalse(recv.isPosted());
        assertEquals(ViState.CONNECTED, pair.viA.state());
        assertTrue(pair.a.errors().isEmpty());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldSendShorterLengthThanSegmentsAndZeroBytes(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_DELIVERY);
        final Descriptor r1 = Descriptor.allocate(1).reset().send().addSegment(pair.b.region, 0, 64);
        final Descriptor r2 = Descriptor.allocate(1).reset().send().addSegment(pair.b.region, 64, 64);
        pair.viB.postRecv(r1);
        pair.viB.postRecv(r2);
        pair.a.region.buffer().setMemory(0, 64, (byte)7);
        final Descriptor send = Descriptor.allocate(1);
        pair.viA.postSend(send.reset().send().addSegment(pair.a.region, 0, 64).length(10));
        assertSame(send, pair.viA.sendWait(T));
        pair.viA.postSend(send.reset().send());
        assertSame(send, pair.viA.sendWait(T));
        assertEquals(DONE | OP_SEND, send.status());

        assertSame(r1, pair.viB.recvWait(T));
        assertEquals(10, r1.length());
        assertEquals(7, pair.b.region.buffer().getByte(9));
        assertEquals(0, pair.b.region.buffer().getByte(10));
        assertSame(r2, pair.viB.recvWait(T));
        assertEquals(DONE | OP_RECEIVE, r2.status());
        assertEquals(0, r2.length());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldFailShortReceiveWithLengthErrorAndWriteNothing(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        pair.b.region.buffer().setMemory(0, 256, (byte)0x5A);
        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(pair.b.region, 0, 8);
        final Descriptor later = Descriptor.allocate(1).reset().send().addSegment(pair.b.region, 8, 8);
        pair.viB.postRecv(recv);
        pair.viB.postRecv(later);
        final Descriptor send = Descriptor.allocate(1).reset().send().addSegment(pair.a.region, 0, 9);
        pair.viA.postSend(send);

        assertEquals(DONE | OP_SEND | DescriptorStatus.REMOTE_DESC_ERROR, pair.viA.sendWait(T).status());
        assertSame(recv, pair.viB.recvWait(T));
        assertEquals(DONE | OP_RECEIVE | DescriptorStatus.LENGTH_ERROR, recv.status());
        assertSame(later, pair.viB.recvWait(T));
        assertEquals(DONE | OP_RECEIVE | DescriptorStatus.DESC_FLUSHED_ERROR, later.status());
        for (int i = 0; i < 256; i++)
        {
            assertEquals(0x5A, pair.b.region.buffer().getByte(i));
        }
        Providers.awaitState(pair.viA, ViState.ERROR);
        Providers.awaitState(pair.viB, ViState.ERROR);
        pair.a.awaitErrors(List.of("CONNECTION_LOST@0"));
        pair.b.awaitErrors(List.of("CONNECTION_LOST@0"));

        final Descriptor flushed = Descriptor.allocate(1).reset().send().addSegment(pair.a.region, 0, 4);
        pair.viA.postSend(flushed);
        assertEquals(DONE | OP_SEND | DescriptorStatus.DESC_FLUSHED_ERROR, pair.viA.sendWait(T).status());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providersAndLevels")
    void shouldHandleReceiveQueueEmptyPerLevel(final String scheme, final ReliabilityLevel level)
    {
        pair = new Pair(scheme, level);
        final Descriptor send = Descriptor.allocate(1).reset().send().addSegment(pair.a.region, 0, 4);
        pair.viA.postSend(send);
        assertSame(send, pair.viA.sendWait(T));
        switch (level)
        {
            case UNRELIABLE:
                assertEquals(DONE | OP_SEND, send.status());
                assertEquals(ViState.CONNECTED, pair.viA.state());
                assertEquals(ViState.CONNECTED, pair.viB.state());
                assertTrue(pair.a.errors().isEmpty());
                assertTrue(pair.b.errors().isEmpty());
                break;
            case RELIABLE_DELIVERY:
                assertEquals(DONE | OP_SEND, send.status());
                Providers.awaitState(pair.viA, ViState.ERROR);
                Providers.awaitState(pair.viB, ViState.ERROR);
                pair.a.awaitErrors(List.of("RECEIVE_QUEUE_EMPTY@0"));
                pair.b.awaitErrors(List.of("RECEIVE_QUEUE_EMPTY@0"));
                break;
            default:
                assertEquals(DONE | OP_SEND | DescriptorStatus.REMOTE_DESC_ERROR, send.status());
                Providers.awaitState(pair.viA, ViState.ERROR);
                Providers.awaitState(pair.viB, ViState.ERROR);
                pair.b.awaitError(AsyncError.RECEIVE_QUEUE_EMPTY);
                break;
        }
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldCompleteLocalErrorsAndBreakReliableConnection(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_DELIVERY);
        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(pair.b.region, 0, 64);
        pair.viB.postRecv(recv);
        final MemoryRegion foreign = pair.a.nic.registerMemory(
            pair.a.memory.duplicate().position(8192).limit(8192 + 64).slice(),
            MemoryAttributes.localOnly(pair.a.nic.createPtag()));
        final Descriptor send = Descriptor.allocate(1).reset().send().addSegment(foreign, 0, 8);
        pair.viA.postSend(send);
        assertEquals(DONE | OP_SEND | DescriptorStatus.PROTECTION_ERROR, pair.viA.sendWait(T).status());
        assertEquals(ViState.ERROR, pair.viA.state());
        Providers.awaitState(pair.viB, ViState.ERROR);
        assertSame(recv, pair.viB.recvWait(T));
        assertEquals(DONE | OP_RECEIVE | DescriptorStatus.DESC_FLUSHED_ERROR, recv.status());
        pair.b.awaitErrors(List.of("CONNECTION_LOST@0"));
        assertTrue(pair.a.errors().isEmpty());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldCompleteFormatAndLengthErrorsOnUnreliableViWithoutBreaking(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.UNRELIABLE);
        final Descriptor tooMany = Descriptor.allocate(17).reset().send();
        for (int i = 0; i < 17; i++)
        {
            tooMany.addSegment(pair.a.region, i, 1);
        }
        pair.viA.postSend(tooMany);
        assertEquals(DONE | OP_SEND | DescriptorStatus.FORMAT_ERROR, pair.viA.sendWait(T).status());

        final Descriptor tooLong = Descriptor.allocate(1).reset().send().addSegment(pair.a.region, 0, 16).length(17);
        pair.viA.postSend(tooLong);
        assertEquals(DONE | OP_SEND | DescriptorStatus.LENGTH_ERROR, pair.viA.sendWait(T).status());

        final Descriptor outOfBounds = Descriptor.allocate(1).reset().send()
            .addSegment(pair.a.region, Node.MEMORY_LENGTH - 4, 8);
        pair.viA.postSend(outOfBounds);
        assertEquals(DONE | OP_SEND | DescriptorStatus.PROTECTION_ERROR, pair.viA.sendWait(T).status());
        assertEquals(ViState.CONNECTED, pair.viA.state());
        assertEquals(ViState.CONNECTED, pair.viB.state());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldFailTransferAboveAgreedMaximum(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION, null,
            new org.viadsm.via.ViAttributes().maxTransferSize(1024));
        final Descriptor send = Descriptor.allocate(1).reset().send().addSegment(pair.a.region, 0, 1025);
        pair.viA.postSend(send);
        assertEquals(DONE | OP_SEND | DescriptorStatus.LENGTH_ERROR, pair.viA.sendWait(T).status());
        assertEquals(1024, pair.viA.remoteAttributes().maxTransferSize());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldRejectMisuse(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(pair.b.region, 0, 8);
        pair.viB.postRecv(recv);
        assertThrows(IllegalStateException.class, () -> pair.viB.postRecv(recv));
        assertThrows(IllegalStateException.class, recv::reset);
        final org.viadsm.via.Vi idle = pair.a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> idle.postSend(Descriptor.allocate(1).reset().send()));
        assertTrue(ex.getMessage().contains("not connected"), ex.getMessage());
        for (int i = 1; i < pair.b.nic.attributes().maxDescriptorsPerQueue(); i++)
        {
            pair.viB.postRecv(Descriptor.allocate(1).reset().send().addSegment(pair.b.region, 0, 8));
        }
        final IllegalStateException full = assertThrows(IllegalStateException.class,
            () -> pair.viB.postRecv(Descriptor.allocate(1).reset().send()));
        assertTrue(full.getMessage().contains("full"), full.getMessage());
        assertNull(idle.sendWait(T));
        idle.close();
        assertThrows(IllegalStateException.class, idle::sendDone);
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void postRecvShouldRefuseMoreSegmentsThanTheDescriptorHoldsAndKeepTheQueueInStep(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final Descriptor bad = Descriptor.allocate(1).reset().send().addSegment(pair.b.region, 0, 8);
        bad.buffer().putShort(DescriptorLayout.SEGMENT_COUNT_OFFSET, (short)5);
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> pair.viB.postRecv(bad));
        assertTrue(ex.getMessage().contains("5"), ex.getMessage());
        assertFalse(bad.isPosted());

        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(pair.b.region, 64, 8);
        pair.viB.postRecv(recv);
        pair.a.region.buffer().putLong(0, 0x5151515151515151L);
        pair.viA.postSend(Descriptor.allocate(1).reset().send().addSegment(pair.a.region, 0, 8));
        assertEquals(DONE | OP_SEND, pair.viA.sendWait(Providers.TIMEOUT_NS).status());
        assertSame(recv, pair.viB.recvWait(Providers.TIMEOUT_NS));
        assertEquals(DONE | OP_RECEIVE, recv.status());
        assertEquals(0x5151515151515151L, pair.b.region.buffer().getLong(64));
    }
}
