package org.viadsm.bench.via;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.viadsm.bench.BenchCase;

/**
 * A ping-pong between an initiator, which times each round trip, and a responder, which echoes: the same loop for
 * every transport, so the VIA paths and their baselines are timed identically.
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
     */
    abstract void send();

    /**
     * Waits for one message.
     *
     * @param last whether it is the last one (no receive needs posting for a next one).
     */
    abstract void receive(boolean last);

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
        send();
        receive(last);
        sent();
    }

    /**
     * Responder: waits for a message and echoes it.
     *
     * @param last whether this is the last message.
     */
    final void echo(final boolean last)
    {
        receive(last);
        send();
        sent();
    }

    /**
     * Runs the initiator: {@code warmup} round trips untimed, then {@code iterations} timed.
     *
     * @param warmup     untimed round trips.
     * @param iterations timed round trips.
     * @return the round-trip times in ns.
     */
    final Histogram initiate(final int warmup, final int iterations)
    {
        start();
        final Histogram histogram = BenchCase.histogram();
        final int total = warmup + iterations;
        for (int i = 0; i < total; i++)
        {
            final long startNs = System.nanoTime();
            roundTrip(i == total - 1);
            final long endNs = System.nanoTime();
            if (i >= warmup)
            {
                BenchCase.record(histogram, endNs - startNs);
            }
        }
        return histogram;
    }

    /**
     * Runs the responder for {@code total} messages.
     *
     * @param total messages to echo.
     * @param ready run once the responder can take the first message.
     */
    final void respond(final int total, final Runnable ready)
    {
        start();
        ready.run();
        for (int i = 0; i < total; i++)
        {
            echo(i == total - 1);
        }
    }

    /**
     * Runs a ping-pong between two threads: the responder on a new thread, the initiator on this one.
     *
     * @param initiator  the timing side.
     * @param responder  the echoing side.
     * @param warmup     untimed round trips.
     * @param iterations timed round trips.
     * @return the round-trip times in ns.
     * @throws IllegalStateException if the responder fails or does not finish in time.
     */
    static Histogram inThreads(
        final PingPong initiator, final PingPong responder, final int warmup, final int iterations)
    {
        final CountDownLatch ready = new CountDownLatch(1);
        final Throwable[] failure = new Throwable[1];
        final Thread thread = new Thread(() ->
        {
            try
            {
                responder.respond(warmup + iterations, ready::countDown);
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
            final Histogram histogram = initiator.initiate(warmup, iterations);
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
