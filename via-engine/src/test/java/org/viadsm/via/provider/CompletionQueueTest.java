package org.viadsm.via.provider;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.via.Completion;
import org.viadsm.via.CompletionQueue;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class CompletionQueueTest extends TwoNodes
{
    private static final long T = Providers.TIMEOUT_NS;

    private Descriptor recv(final Node node, final int offset)
    {
        return Descriptor.allocate(1).reset().send().addSegment(node.region, offset, 8);
    }

    private void send(final Vi vi, final Node node, final int value)
    {
        node.region.buffer().putInt(0, value);
        vi.postSend(Descriptor.allocate(1).reset().send().addSegment(node.region, 0, 4).immediateData(value));
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldMergeReceiveCompletionsOfSeveralVisInCompletionOrder(final String scheme)
    {
        nodes(scheme);
        final CompletionQueue cq = b.nic.createCq(16);
        final Vi[] senders = new Vi[3];
        final Vi[] receivers = new Vi[3];
        for (int i = 0; i < 3; i++)
        {
            senders[i] = a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
            receivers[i] = b.vi(b.attributes(ReliabilityLevel.RELIABLE_RECEPTION), null, cq);
            Providers.connect(senders[i], b.nic.address(), receivers[i], a.nic.address());
            receivers[i].postRecv(recv(b, 64 * i));
        }
        final int[] order = {2, 0, 1};
        for (final int i : order)
        {
            send(senders[i], a, 100 + i);
            assertEquals(DescriptorStatus.DONE, senders[i].sendWait(T).status());
        }
        final Completion completion = new Completion();
        for (final int i : order)
        {
            assertTrue(cq.done(completion));
            assertSame(receivers[i], completion.vi());
            assertTrue(completion.isRecvQueue());
            final Descriptor d = receivers[i].recvDone();
            assertEquals(100 + i, d.immediateData());
        }
        assertFalse(cq.done(completion));
        assertFalse(cq.await(TimeUnit.MILLISECONDS.toNanos(5), completion));
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> receivers[0].recvWait(T));
        assertTrue(ex.getMessage().contains("completion queue"), ex.getMessage());
        assertThrows(IllegalStateException.class, cq::close);
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldReportSendCompletionsAndForbidSendWait(final String scheme)
    {
        nodes(scheme);
        final CompletionQueue cq = a.nic.createCq(4);
        final Vi x = a.vi(a.attributes(ReliabilityLevel.RELIABLE_RECEPTION), cq, cq);
        final Vi y = b.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        Providers.connect(x, b.nic.address(), y, a.nic.address());
        y.postRecv(recv(b, 0));
        send(x, a, 1);
        final Completion completion = new Completion();
        assertTrue(cq.await(T, completion));
        assertSame(x, completion.vi());
        assertFalse(completion.isRecvQueue());
        assertEquals(DescriptorStatus.DONE, x.sendDone().status());
        assertThrows(IllegalStateException.class, () -> x.sendWait(T));
        assertSame(cq, x.sendCq());
        assertNull(y.recvCq());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldResizeAndReportOverrun(final String scheme)
    {
        nodes(scheme);
        final CompletionQueue cq = b.nic.createCq(8);
        final Vi x = a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        final Vi y = b.vi(b.attributes(ReliabilityLevel.RELIABLE_RECEPTION), null, cq);
        Providers.connect(x, b.nic.address(), y, a.nic.address());
        cq.resize(2);
        assertEquals(2, cq.capacity());
        for (int i = 0; i < 3; i++)
        {
            y.postRecv(recv(b, 8 * i));
            send(x, a, i);
            assertEquals(DescriptorStatus.DONE, x.sendWait(T).status());
        }
        assertThrows(IllegalArgumentException.class, () -> cq.resize(1));
        assertThrows(IllegalArgumentException.class, () -> cq.resize(b.nic.attributes().maxCqEntries() + 1));
        cq.resize(4);
        final Completion completion = new Completion();
        assertTrue(cq.done(completion));
        assertTrue(cq.done(completion));
        assertFalse(cq.done(completion));
        for (int i = 0; i < 3; i++)
        {
            assertEquals(i, y.recvDone().immediateData());
        }
        b.awaitErrors(List.of("COMPLETION_PROTECTION@0"));
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldWakeAwaitingConsumer(final String scheme) throws Exception
    {
        nodes(scheme);
        final CompletionQueue cq = b.nic.createCq(8);
        final Vi x = a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        final Vi y = b.vi(b.attributes(ReliabilityLevel.RELIABLE_RECEPTION), null, cq);
        Providers.connect(x, b.nic.address(), y, a.nic.address());
        y.postRecv(recv(b, 0));
        final CompletableFuture<Vi> consumer = CompletableFuture.supplyAsync(() ->
        {
            final Completion completion = new Completion();
            return cq.await(Long.MAX_VALUE, completion) ? completion.vi() : null;
        });
        Thread.sleep(20);
        send(x, a, 7);
        assertSame(y, consumer.get(20, TimeUnit.SECONDS));
        assertEquals(7, y.recvDone().immediateData());

        final CompletableFuture<Boolean> closed = CompletableFuture.supplyAsync(
            () -> cq.await(Long.MAX_VALUE, new Completion()));
        Thread.sleep(20);
        b.close();
        assertFalse(closed.get(20, TimeUnit.SECONDS));
    }
}
