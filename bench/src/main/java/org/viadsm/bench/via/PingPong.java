package org.viadsm.bench.via;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.viadsm.bench.BenchCase;

/**
 * A ping-pong between an initiator, which times each round trip, and a responder, which echoes: the same loop for
 * every transport, so the VIA paths and their baselines are timed identically. The initiator marks its last
 * message, so the responder needs no count, and the initiator may stop early: a run that outlasts its time budget
 * (a ping-pong whose waiters keep parking is a hundred times slower) ends with fewer samples.
 * <p>
 * <b>Note:</b> each side is used by one thread.
 */
abstract class PingPong
{
    /**
     * Gets ready for the first message (posts receives); called on both sides before the loop.
     */
    void start()
    {
    }

    /**
     * Sends one message.
     *
     * @param last whether it is the last; the receiver learns it from the message.
     */
    abstract void send(boolean last);

    /**
     * Waits for one message, and gets ready for the next unless this one was the last.
     *
     * @return whether the sender marked it last.
     */
    abstract boolean receive();

    /**
     * After a round trip or an echo: takes back what the send left (a send descriptor).
     */
    void sent()
    {
    }

    /**
     * Initiator: sends a message and waits for its echo.
     *
     * @param last whether this is the last round trip.
     */
    final void roundTrip(final boolean last)
    {
        send(last);
        receive();
        sent();
    }

    /**
     * Responder: waits for a message and echoes it, mark included.
     *
     * @return whether it was the last.
     */
    final boolean echo()
    {
        final boolean last = receive();
        send(last);
        sent();
        return last;
    }

    /**
     * Runs the initiator: up to {@code warmup} round trips untimed (for at most a third of the budget), then up to
     * {@code iterations} timed, stopping once the budget is spent.
     *
     * @param warmup     untimed round trips.
     * @param iterations timed round trips, at least 1.
     * @param budgetNs   time budget of the whole run.
     * @return the round-trip times in ns.
     */
    final Histogram initiate(final int warmup, final int iterations, final long budgetNs)
    {
        start();
        final Histogram histogram = BenchCase.histogram();
        long nowNs = System.nanoTime();
        final long warmDeadlineNs = nowNs + budgetNs / 3;
        final long deadlineNs = nowNs + budgetNs;
        for (int i = 0; i < warmup && nowNs - warmDeadlineNs < 0; i++)
        {
            roundTrip(false);
            nowNs = System.nanoTime();
        }
        final long startBytes = BenchCase.allocatedBytes();
        int timed = 0;
        for (int i = 0; i < iterations; i++)
        {
            final boolean last = i == iterations - 1 || nowNs - deadlineNs >= 0;
            final long startNs = System.nanoTime();
            roundTrip(last);
            nowNs = System.nanoTime();
            BenchCase.record(histogram, nowNs - startNs);
            timed++;
            if (last)
            {
                break;
            }
        }
        BenchCase.countAllocation(startBytes, timed);
        return histogram;
    }

    /**
     * Runs the responder until the message marked last.
     *
     * @param ready run once the responder can take the first message.
     * @return messages echoed.
     */
    final long respond(final Runnable ready)
    {
        start();
        ready.run();
        long echoed = 1;
        while (!echo())
        {
            echoed++;
        }
        return echoed;
    }

    /**
     * Runs a ping-pong between two threads: the responder on a new thread, the initiator on this one.
     *
     * @param initiator  the timing side.
     * @param responder  the echoing side.
     * @param warmup     untimed round trips.
     * @param iterations timed round trips.
     * @param budgetNs   time budget of the run.
     * @return the round-trip times in ns.
     * @throws IllegalStateException if the responder fails or does not finish in time.
     */
    static Histogram inThreads(
        final PingPong initiator, final PingPong responder, final int warmup, final int iterations,
        final long budgetNs)
    {
        final CountDownLatch ready = new CountDownLatch(1);
        final Throwable[] failure = new Throwable[1];
        final Thread thread = new Thread(() ->
        {
            try
            {
                responder.respond(ready::countDown);
            }
            catch (final Throwable ex)
            {
                failure[0] = ex;
                ready.countDown();
            }
        }, "bench-responder");
        thread.setDaemon(true);
        thread.start();
        try
        {
            if (!ready.await(BenchCase.TIMEOUT_NS, TimeUnit.NANOSECONDS) || null != failure[0])
            {
                throw new IllegalStateException("responder thread did not start", failure[0]);
            }
            final Histogram histogram = initiator.initiate(warmup, iterations, budgetNs);
            thread.join(TimeUnit.NANOSECONDS.toMillis(BenchCase.TIMEOUT_NS));
            if (thread.isAlive() || null != failure[0])
            {
                throw new IllegalStateException("responder thread failed or did not finish", failure[0]);
            }
            return histogram;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
