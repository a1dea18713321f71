package org.viadsm.via.provider;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

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

    /** Takes back {@code count} sends, each done once the target has taken it (reliable reception). */
    private static void sent(final Vi vi, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            assertEquals(DescriptorStatus.DONE, vi.sendWait(T).status());
        }
    }

    /**
     * Runs a wait that a close on another thread should end. No sleep can order the two threads: on a loaded machine
     * the close may come before the wait begins, and the wait is then refused, not hung; both end the same way.
     */
    private static <T> T endedOrRefused(final Supplier<T> wait, final T refused)
    {
        try
        {
            return wait.get();
        }
        catch (final IllegalStateException ex)
        {
            assertTrue(ex.getMessage().endsWith(" is destroyed"), ex.getMessage());
            return refused;
        }
    }

    /** A VI of a connected to a VI of b whose receive queue reports to {@code cq}; returns them a-side first. */
    private Vi[] connectedThrough(final CompletionQueue cq)
    {
        final Vi x = a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        final Vi y = b.vi(b.attributes(ReliabilityLevel.RELIABLE_RECEPTION), null, cq);
        Providers.connect(x, b.nic.address(), y, a.nic.address());
        return new Vi[] {x, y};
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
        final Vi[] xy = connectedThrough(cq);
        final Vi x = xy[0];
        final Vi y = xy[1];
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
            () -> endedOrRefused(() -> cq.await(Long.MAX_VALUE, new Completion()), false));
        Thread.sleep(20);
        b.close();
        assertFalse(closed.get(20, TimeUnit.SECONDS), "a consumer waiting while the NIC closes is woken");
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void completionsOfADestroyedViShouldNotBeReportedForTheViThatTookItsId(final String scheme)
    {
        nodes(scheme);
        final CompletionQueue cq = b.nic.createCq(16);
        final Vi[] pair = connectedThrough(cq);
        final Vi sender = pair[0];
        final Vi old = pair[1];
        old.postRecv(recv(b, 0));
        old.postRecv(recv(b, 64));
        final int id = old.id();
        old.close();
        final Vi fresh = b.vi(b.attributes(ReliabilityLevel.RELIABLE_RECEPTION), null, cq);
        assertEquals(id, fresh.id());
        final Completion completion = new Completion();
        assertFalse(cq.done(completion), "the flushed receives of the destroyed VI are not the new VI's");

        sender.disconnect();
        Providers.connect(sender, b.nic.address(), fresh, a.nic.address());
        final Descriptor mine = recv(b, 128);
        fresh.postRecv(mine);
        send(sender, a, 7);
        assertTrue(cq.await(T, completion));
        assertSame(fresh, completion.vi());
        assertSame(mine, fresh.recvDone());
        assertFalse(cq.done(completion));
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void aFullQueueShouldReportOneErrorPerOverrunNotOnePerLostCompletion(final String scheme)
    {
        nodes(scheme);
        final CompletionQueue cq = b.nic.createCq(2);
        final Vi[] xy = connectedThrough(cq);
        final Vi x = xy[0];
        final Vi y = xy[1];
        for (int i = 0; i < 6; i++)
        {
            y.postRecv(recv(b, 8 * i));
            send(x, a, i);
        }
        sent(x, 6);
        y.state();
        assertEquals(List.of("COMPLETION_PROTECTION@" + y.id()), b.errors());
        final Completion completion = new Completion();
        assertTrue(cq.await(T, completion));
        y.postRecv(recv(b, 64));
        y.postRecv(recv(b, 72));
        send(x, a, 6);
        send(x, a, 7);
        sent(x, 2);
        y.state();
        assertEquals(List.of("COMPLETION_PROTECTION@" + y.id(), "COMPLETION_PROTECTION@" + y.id()), b.errors(),
            "a second overrun, after the consumer took an entry, is reported again");
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void closingAQueueShouldEndAWaitOnItInProgress(final String scheme) throws Exception
    {
        nodes(scheme);
        final CompletionQueue cq = b.nic.createCq(4);
        final CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(
            () -> endedOrRefused(() -> cq.await(T, new Completion()), false));
        Thread.sleep(50);
        cq.close();
        assertFalse(waiter.get(5, TimeUnit.SECONDS));
        assertThrows(IllegalStateException.class, () -> cq.done(new Completion()));
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void closingAViShouldEndAWaitOnItInProgress(final String scheme) throws Exception
    {
        nodes(scheme);
        final Vi vi = b.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        final Descriptor recv = recv(b, 0);
        vi.postRecv(recv);
        final CompletableFuture<Descriptor> waiter = CompletableFuture.supplyAsync(
            () -> endedOrRefused(() -> vi.recvWait(T), null));
        Thread.sleep(50);
        vi.close();
        assertNull(waiter.get(5, TimeUnit.SECONDS));
        assertFalse(recv.isPosted(), "close handed the receive back");
        assertEquals(DescriptorStatus.DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.DESC_FLUSHED_ERROR,
            recv.status());
    }
}
