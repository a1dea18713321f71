package org.viadsm.consistency.sync;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import org.viadsm.consistency.port.NotificationHandler;
import org.viadsm.consistency.port.ProtocolPort;

/**
 * The part of a barrier wait before it sleeps: it polls for a round's message for as long as the {@link SpinBudget}
 * allows, and a wait that outlasts its poll measures a wake-up for the budget with one short park.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class BarrierPoll
{
    /** While it polls a two-node barrier's word, one poll in this many also polls the port. */
    static final int PORT_PERIOD = 16;

    private final ProtocolPort port;
    private final NotificationHandler handler;
    private final BarrierMailbox barriers;
    private final SpinBudget spin;
    private final PollIdleStrategy pollIdle;

    BarrierPoll(final ProtocolPort port, final NotificationHandler handler, final BarrierMailbox barriers)
    {
        this.port = port;
        this.handler = handler;
        this.barriers = barriers;
        this.spin = new SpinBudget(port.nodeCount(), Runtime.getRuntime().availableProcessors());
        this.pollIdle = new PollIdleStrategy(
            SystemNanoClock.INSTANCE, spin.judgesPolls() ? threadCpuClock() : null, spin.spinOnlyNs());
    }

    /**
     * Takes in notifications without sleeping until the round's message arrives, the barrier breaks, the thread is
     * interrupted, or the budget or the wait's time is spent.
     *
     * @return the message's barrier kind, or -1 if it has not arrived.
     */
    int poll(final int parity, final int round, final long epoch, final SyncWait wait)
    {
        final long budgetNs = Math.min(spin.nextBudgetNs(), wait.remainingNs());
        if (budgetNs <= 0)
        {
            return -1;
        }
        final long deadlineNs = pollIdle.startPhase() + budgetNs;
        int arrivedKind;
        while (-1 == (arrivedKind = barriers.take(parity, round)) && !barriers.isBroken(epoch) &&
            !Thread.currentThread().isInterrupted() && pollIdle.pollStep(port.pollNotifications(handler), deadlineNs))
        {
            // pollStep polled the port (and spun or yielded if it took in nothing): look for the message again
        }
        spin.onPolled(pollIdle.conclude());
        return arrivedKind;
    }

    /**
     * As {@link #poll}, for the partner's arrival word at a two-node barrier ({@link PairBarrier}): polls the word in
     * this node's memory, and takes in notifications (a breaking, a departure, a failure) on one poll in
     * {@value #PORT_PERIOD} only.
     *
     * @return true if the word of barrier {@code epoch} is in.
     */
    boolean pollWord(final AtomicBuffer control, final int offset, final long epoch, final SyncWait wait)
    {
        final long budgetNs = Math.min(spin.nextBudgetNs(), wait.remainingNs());
        if (budgetNs <= 0)
        {
            return false;
        }
        final long deadlineNs = pollIdle.startPhase() + budgetNs;
        int polls = 0;
        boolean arrived;
        while (!(arrived = PairBarrier.isFor(control.getLongVolatile(offset), epoch)) && !barriers.isBroken(epoch) &&
            !Thread.currentThread().isInterrupted() &&
            pollIdle.pollStep(0 == (++polls & (PORT_PERIOD - 1)) ? port.pollNotifications(handler) : 0, deadlineNs))
        {
            // pollStep spun or yielded (and the port was polled if it was its turn): look at the word again
        }
        spin.onPolled(pollIdle.conclude());
        return arrived;
    }

    /**
     * Measures a wake-up for the poll budget with one short park of a wait that outlasted its poll and would sleep
     * anyway, then takes in the notifications that came meanwhile.
     */
    void probeWakeUp(final SyncWait wait)
    {
        if (spin.measuresWakeUps() && wait.remainingNs() > SpinBudget.PROBE_PARK_NS &&
            !Thread.currentThread().isInterrupted())
        {
            final long parkedNs = System.nanoTime();
            LockSupport.parkNanos(SpinBudget.PROBE_PARK_NS);
            if (!Thread.currentThread().isInterrupted())
            {
                spin.onProbeParked(System.nanoTime() - parkedNs);
            }
            port.pollNotifications(handler);
        }
    }

    /**
     * The calling thread's CPU time, where the JVM measures it; else the wall clock, so that polls look as if they
     * kept their core.
     */
    private static NanoClock threadCpuClock()
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled() ?
            threads::getCurrentThreadCpuTime : SystemNanoClock.INSTANCE;
    }
}
