package org.viadsm.bench.via;

import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.IdleStrategy;
import org.viadsm.bench.BenchCase;
import org.viadsm.via.NicConfiguration;
import org.viadsm.via.NicContext;

/**
 * The VIA's way of waiting where nobody can wake the waiter, for the baselines: spin with
 * {@link Thread#onSpinWait()} for the engine's spin phase, then park with the engine's exponential backoff, from the
 * same settings ({@link #SETTINGS}). A baseline that waits this way spins as long as a {@code recvWait} does before it
 * blocks; one that busy-spun forever would win or lose by a wide margin on 2 cores depending on what else runs. Past
 * the spin phase a {@code recvWait} sleeps until its completer wakes it (a bell across processes), which a
 * baseline without such a mechanism cannot match, so rows where waits end in wake-ups favour the engine.
 * <p>
 * Gives up with an {@link IllegalStateException} after {@link BenchCase#TIMEOUT_NS} of waiting.
 * <p>
 * <b>Note:</b> not thread-safe; one per waiting thread.
 */
public final class SpinParkIdle implements IdleStrategy
{
    /** The settings of this JVM's NICs (from its properties and environment), whose waits the baselines copy. */
    public static final NicContext SETTINGS = new NicContext().conclude();

    private final long spinNs = spinNs();
    private final long parkMinNs = SETTINGS.waits().parkMinNs();
    private final long parkMaxNs = SETTINGS.waits().parkMaxNs();
    private final String what;
    private boolean idling;
    private long startNs;
    private long parkNs;

    /**
     * A waiter.
     *
     * @param what what is waited for, for the timeout's message.
     */
    public SpinParkIdle(final String what)
    {
        this.what = what;
    }

    /**
     * The spin phase of a wait on a jvm or shm NIC.
     *
     * @return ns.
     */
    public static long spinNs()
    {
        return SETTINGS.waits().spinNsOrDefault(NicConfiguration.WAIT_SPIN_NS_DEFAULT);
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
        }
        else
        {
            idle();
        }
    }

    @Override
    public void idle()
    {
        final long nowNs = System.nanoTime();
        if (!idling)
        {
            idling = true;
            startNs = nowNs;
            parkNs = parkMinNs;
        }
        final long waitedNs = nowNs - startNs;
        if (waitedNs < spinNs)
        {
            Thread.onSpinWait();
            return;
        }
        if (waitedNs > BenchCase.TIMEOUT_NS)
        {
            throw new IllegalStateException(what + ": no progress within " + BenchCase.TIMEOUT_NS / 1_000_000 + " ms");
        }
        LockSupport.parkNanos(parkNs);
        parkNs = Math.min(parkNs << 1, parkMaxNs);
    }

    @Override
    public void reset()
    {
        idling = false;
    }
}
