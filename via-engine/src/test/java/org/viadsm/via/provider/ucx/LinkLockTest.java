package org.viadsm.via.provider.ucx;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lock of a link's send queue: reentrant, exclusive, released only by its holder.
 */
class LinkLockTest
{
    @Test
    void shouldBeTakenAgainByItsHolderAndReleasedOncePerHold()
    {
        final LinkLock lock = new LinkLock();
        assertFalse(lock.isHeldByCurrentThread());
        lock.lock();
        lock.lock();
        assertTrue(lock.isHeldByCurrentThread());
        lock.unlock();
        assertTrue(lock.isHeldByCurrentThread(), "one hold left");
        lock.unlock();
        assertFalse(lock.isHeldByCurrentThread());
        final IllegalStateException ex = assertThrows(IllegalStateException.class, lock::unlock);
        assertEquals("the link's lock is not held by " + Thread.currentThread().getName(), ex.getMessage());
    }

    @Test
    @Timeout(30)
    void shouldNotBeReleasedByAnotherThread() throws InterruptedException
    {
        final LinkLock lock = new LinkLock();
        lock.lock();
        lock.lock();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread other = new Thread(() ->
        {
            try
            {
                lock.unlock();
            }
            catch (final Throwable ex)
            {
                failure.set(ex);
            }
        }, "other");
        other.start();
        other.join();
        assertEquals("the link's lock is not held by other", failure.get().getMessage());
        assertTrue(lock.isHeldByCurrentThread());
        lock.unlock();
        assertTrue(lock.isHeldByCurrentThread(), "the holder's second hold was not taken by the other thread");
        lock.unlock();
        assertFalse(lock.isHeldByCurrentThread());
    }

    @Test
    @Timeout(60)
    void shouldLetOneThreadAtATimeIn() throws InterruptedException
    {
        final LinkLock lock = new LinkLock();
        final int[] counter = new int[1];
        final int perThread = 200_000;
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final CountDownLatch start = new CountDownLatch(1);
        final Thread[] threads = new Thread[3];
        for (int t = 0; t < threads.length; t++)
        {
            threads[t] = new Thread(() ->
            {
                try
                {
                    start.await();
                    for (int i = 0; i < perThread; i++)
                    {
                        lock.lock();
                        try
                        {
                            // a read, a yield now and then, a write: a lost update shows in the count
                            final int value = counter[0];
                            if (0 == (i & 1023))
                            {
                                Thread.yield();
                            }
                            counter[0] = value + 1;
                        }
                        finally
                        {
                            lock.unlock();
                        }
                    }
                }
                catch (final Throwable ex)
                {
                    failure.set(ex);
                }
            });
            threads[t].start();
        }
        start.countDown();
        for (final Thread thread : threads)
        {
            assertTrue(joined(thread));
        }
        assertNull(failure.get());
        lock.lock();
        assertEquals(threads.length * perThread, counter[0]);
        lock.unlock();
    }

    private static boolean joined(final Thread thread) throws InterruptedException
    {
        thread.join(TimeUnit.SECONDS.toMillis(50));
        return !thread.isAlive();
    }
}
