package org.viadsm.via.provider;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@Timeout(60)
class OrderingTest extends TwoNodes
{
    private static final int MESSAGES = 100_000;
    private static final int WINDOW = 64;
    private static final int SLOT = 16;

    /**
     * The receiver keeps {@link #WINDOW} receives posted and grants credit back by RDMA Write into the sender's
     * memory, so the sender never overruns the receive queue; every message carries its sequence number in the
     * payload and the immediate data.
     */
    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldDeliverPipelinedSendsExactlyOnceInOrder(final String scheme) throws Exception
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final int creditOffset = 32 * 1024;
        final CompletableFuture<Long> receiver = CompletableFuture.supplyAsync(this::receive);
        final Descriptor[] sends = new Descriptor[WINDOW];
        for (int i = 0; i < WINDOW; i++)
        {
            sends[i] = Descriptor.allocate(1);
        }
        long sent = 0;
        long completed = 0;
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(50);
        final BackoffIdleStrategy idle = new BackoffIdleStrategy(100, 10, 1_000, 100_000);
        while (completed < MESSAGES)
        {
            int progress = 0;
            final long credit = pair.a.region.buffer().getLongVolatile(creditOffset);
            while (sent < MESSAGES && sent < credit && sent - completed < WINDOW)
            {
                final int slot = (int)(sent % WINDOW);
                pair.a.region.buffer().putLong(slot * SLOT, sent);
                pair.viA.postSend(sends[slot].reset().send().addSegment(pair.a.region, slot * SLOT, 8)
                    .immediateData((int)sent));
                sent++;
                progress++;
            }
            Descriptor done;
            while (null != (done = pair.viA.sendDone()))
            {
                assertEquals(DescriptorStatus.DONE, done.status());
                completed++;
                progress++;
            }
            if (System.nanoTime() - deadlineNs > 0)
            {
                break;
            }
            idle.idle(progress);
        }
        assertEquals(MESSAGES, completed);
        assertEquals(MESSAGES, receiver.get(20, TimeUnit.SECONDS));
    }

    private long receive()
    {
        final int base = 16 * 1024;
        final Descriptor[] recvs = new Descriptor[WINDOW];
        for (int i = 0; i < WINDOW; i++)
        {
            recvs[i] = Descriptor.allocate(1).reset().send().addSegment(pair.b.region, base + i * SLOT, SLOT);
            pair.viB.postRecv(recvs[i]);
        }
        final Descriptor credit = Descriptor.allocate(1);
        final int creditOffset = 32 * 1024;
        final int creditSource = 48 * 1024;
        grant(credit, creditSource, creditOffset, WINDOW);
        long expected = 0;
        while (expected < MESSAGES)
        {
            final Descriptor d = pair.viB.recvWait(Providers.TIMEOUT_NS);
            final int slot = (int)(expected % WINDOW);
            assertEquals(recvs[slot], d);
            assertEquals(DescriptorStatus.DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.IMMEDIATE,
                d.status());
            assertEquals((int)expected, d.immediateData());
            assertEquals(expected, pair.b.region.buffer().getLong(base + slot * SLOT));
            expected++;
            pair.viB.postRecv(d.reset().send().addSegment(pair.b.region, base + slot * SLOT, SLOT));
            if (0 == expected % (WINDOW / 2))
            {
                grant(credit, creditSource, creditOffset, expected + WINDOW);
            }
        }
        assertNull(pair.viB.recvDone());
        return expected;
    }

    private void grant(final Descriptor credit, final int source, final int target, final long value)
    {
        pair.b.region.buffer().putLong(source, value);
        pair.viB.postSend(credit.reset().rdmaWrite(pair.a.region.handle(), target)
            .addSegment(pair.b.region, source, 8));
        assertEquals(DescriptorStatus.DONE | DescriptorStatus.OP_RDMA_WRITE,
            pair.viB.sendWait(Providers.TIMEOUT_NS).status());
    }
}
