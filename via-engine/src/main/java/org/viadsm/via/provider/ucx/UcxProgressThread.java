package org.viadsm.via.provider.ucx;

import java.time.Duration;

/**
 * A thread that makes progress on a NIC's worker, sleeping on a bell of the NIC (the worker's event file
 * descriptor) whenever there is nothing to do: over TCP the peers' puts, gets and atomics on this NIC's memory are
 * performed by this process, and someone must be there to perform them. It is also the failure detector of
 * the links that need it: it sends their heartbeats and notices a peer's falling silent
 * ({@link UcxTransport#checkLiveness}).
 */
final class UcxProgressThread implements Runnable
{
    private static final long SLEEP_NS = 100_000_000L;
    /** Longest the NIC's close waits for the thread to end before it leaves the worker to {@link WorkerRelease}. */
    static final long JOIN_NS = 2_000_000_000L;

    private final UcxTransport nic;
    private final Thread thread;
    private volatile boolean running;
    private volatile UcxBell bell;
    private boolean started;

    UcxProgressThread(final UcxTransport nic)
    {
        this.nic = nic;
        this.thread = new Thread(this, "viadsm-ucx-progress-" + nic.address());
        thread.setDaemon(true);
    }

    synchronized void start()
    {
        if (!started)
        {
            started = true;
            running = true;
            thread.start();
        }
    }

    boolean isRunning()
    {
        return running;
    }

    @Override
    public void run()
    {
        final UcxBell sleepOn = nic.progressBell();
        bell = sleepOn;
        long nextCheckNs = System.nanoTime();
        try
        {
            while (running)
            {
                final long nowNs = System.nanoTime();
                if (nowNs - nextCheckNs >= 0)
                {
                    nextCheckNs = nic.checkLiveness(nowNs);
                }
                if (0 == nic.progress(false) && running)
                {
                    if (null != sleepOn)
                    {
                        sleepOn.await(SLEEP_NS);
                    }
                    else
                    {
                        nic.worker().waitForEvents();
                    }
                }
            }
        }
        finally
        {
            if (null != sleepOn)
            {
                nic.releaseBell(sleepOn);
            }
        }
    }

    /**
     * Stops the thread and waits until it has ended, for at most {@link #JOIN_NS}, whether or not the closing thread
     * is interrupted (its interrupt status is kept): the worker must not be destroyed while this thread may still
     * run in it, so if the bound passes, or if this is the progress thread itself, the NIC's release waits for
     * {@link #hasEnded()} before it destroys the worker ({@link WorkerRelease}).
     */
    void close()
    {
        final boolean wasStarted;
        synchronized (this)
        {
            wasStarted = started;
        }
        running = false;
        if (wasStarted)
        {
            final UcxBell sleepOn = bell;
            if (null != sleepOn)
            {
                sleepOn.wakeup();
            }
            nic.worker().signal();
            if (Thread.currentThread() != thread)
            {
                awaitEnd(System.nanoTime() + JOIN_NS);
            }
        }
    }

    /**
     * Whether the thread has ended, or never started.
     *
     * @return true if it runs no more.
     */
    boolean hasEnded()
    {
        return !thread.isAlive();
    }

    private void awaitEnd(final long deadlineNs)
    {
        boolean interrupted = false;
        try
        {
            long leftNs = deadlineNs - System.nanoTime();
            while (thread.isAlive() && leftNs > 0)
            {
                try
                {
                    thread.join(Duration.ofNanos(leftNs));
                }
                catch (final InterruptedException ex)
                {
                    interrupted = true;
                }
                leftNs = deadlineNs - System.nanoTime();
            }
        }
        finally
        {
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
