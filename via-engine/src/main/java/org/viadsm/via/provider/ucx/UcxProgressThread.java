package org.viadsm.via.provider.ucx;

/**
 * A thread that makes progress on a NIC's worker, sleeping in UCX's wait for events (the worker's event file
 * descriptor) whenever there is nothing to do: over TCP the peers' puts, gets and atomics on this NIC's memory are
 * performed by this process, and someone must be there to perform them.
 */
final class UcxProgressThread implements Runnable
{
    private final UcxTransport nic;
    private final Thread thread;
    private volatile boolean running;
    private volatile boolean started;

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
        while (running)
        {
            if (0 == nic.progress(false) && running)
            {
                nic.worker().waitForEvents();
            }
        }
    }

    void close()
    {
        running = false;
        if (started)
        {
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
