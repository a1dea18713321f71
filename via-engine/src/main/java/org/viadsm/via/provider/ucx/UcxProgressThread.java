package org.viadsm.via.provider.ucx;

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
            try
            {
                thread.join(2_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
