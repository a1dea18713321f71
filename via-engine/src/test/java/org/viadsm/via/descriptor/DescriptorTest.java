package org.viadsm.via.descriptor;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DescriptorTest
{
    @Test
    void postShouldRefuseASecondPost()
    {
        final Descriptor d = Descriptor.allocate(1).reset().send();
        DescriptorOwnership.post(d);
        assertTrue(d.isPosted());
        assertThrows(IllegalStateException.class, () -> DescriptorOwnership.post(d));
        assertThrows(IllegalStateException.class, d::reset);
        DescriptorOwnership.giveBack(d);
        DescriptorOwnership.post(d);
    }

    @Test
    @Timeout(60)
    void postShouldLetExactlyOneOfTwoRacingThreadsPost() throws Exception
    {
        final int rounds = 20_000;
        final Descriptor d = Descriptor.allocate(1).reset().send();
        final CyclicBarrier start = new CyclicBarrier(2);
        final CyclicBarrier end = new CyclicBarrier(2, () -> DescriptorOwnership.giveBack(d));
        final AtomicInteger posted = new AtomicInteger();
        final Runnable poster = () ->
        {
            try
            {
                for (int i = 0; i < rounds; i++)
                {
                    start.await();
                    try
                    {
                        DescriptorOwnership.post(d);
                        posted.incrementAndGet();
                    }
                    catch (final IllegalStateException expected)
                    {
                        // the other thread posted it
                    }
                    end.await();
                }
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
        };
        final Thread other = new Thread(poster);
        other.start();
        poster.run();
        other.join();
        assertEquals(rounds, posted.get(), "each round, exactly one post succeeded");
    }

    @Test
    void resetShouldZeroTheControlSegmentPastTheUserDataAndLeaveTheRest()
    {
        final int length = DescriptorLayout.length(2);
        for (final Descriptor d : new Descriptor[] {
            Descriptor.allocate(2), new Descriptor(new UnsafeBuffer(new byte[length]), 2)})
        {
            d.buffer().setMemory(0, length, (byte)0x5A);
            d.reset();
            assertEquals(0x5A5A5A5A5A5A5A5AL, d.userData(), "the consumer's cookie stays");
            for (int i = DescriptorLayout.RESERVED_HANDLE_OFFSET; i < DescriptorLayout.DATA_SEGMENTS_OFFSET; i++)
            {
                assertEquals(0, d.buffer().getByte(i), "byte " + i);
            }
            for (int i = DescriptorLayout.DATA_SEGMENTS_OFFSET; i < length; i++)
            {
                assertEquals(0x5A, d.buffer().getByte(i), "byte " + i + " of the segments");
            }
            d.fetchAndAdd(7, 64, 3).addSegment(9, 16, 8);
            assertEquals(1, d.segments().count());
            assertEquals(8, d.length());
            assertEquals(9, d.segments().handle(0));
            assertEquals(16, d.segments().address(0));
            assertEquals(64, d.remoteAddress());
            assertEquals(0, d.status());
        }
    }
}
