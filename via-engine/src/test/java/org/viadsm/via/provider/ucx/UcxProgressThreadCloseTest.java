package org.viadsm.via.provider.ucx;

import java.lang.reflect.Field;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.ProgressThread;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.provider.Providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A ucx NIC whose progress thread runs, closed from a thread whose interrupt flag is set: the close waits until the
 * progress thread has ended (a join that an interrupt cut short let the worker be destroyed under a live progress
 * thread) and keeps the closing thread's interrupt status.
 */
@Timeout(60)
class UcxProgressThreadCloseTest
{
    @BeforeAll
    static void ucx()
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
    }

    @Test
    void shouldEndTheProgressThreadWhenClosedFromAnInterruptedThread() throws ReflectiveOperationException
    {
        final NicContext context = new NicContext().ucxProgressThread(ProgressThread.ALWAYS);
        try (Nic other = Nic.open("ucx:127.0.0.1:0", context))
        {
            final Nic nic = Nic.open("ucx:127.0.0.1:0", context);
            final Vi mine = nic.createVi(new ViAttributes().ptag(nic.createPtag()), null, null);
            final Vi theirs = other.createVi(new ViAttributes().ptag(other.createPtag()), null, null);
            Providers.connect(mine, other.address(), theirs, nic.address());
            final UcxTransport transport = (UcxTransport)((EngineNic)nic).transport();
            assertTrue(transport.wakesArmedWaiters(), "the progress thread runs");
            final List<Thread> progress = Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals("viadsm-ucx-progress-" + nic.address())).toList();
            assertEquals(1, progress.size(), progress.toString());
            assertTrue(progress.get(0).isAlive());

            // the thread's own close returns once the thread has ended, however the closing thread was interrupted
            final Field field = UcxTransport.class.getDeclaredField("progressThread");
            field.setAccessible(true);
            final UcxProgressThread progressThread = (UcxProgressThread)field.get(transport);
            Thread.currentThread().interrupt();
            try
            {
                progressThread.close();
                assertTrue(Thread.currentThread().isInterrupted(), "the closing thread's interrupt status is kept");
                assertTrue(progressThread.hasEnded());
                assertFalse(progress.get(0).isAlive(), "the progress thread has ended");

                nic.close();
                assertTrue(Thread.currentThread().isInterrupted(), "the closing thread's interrupt status is kept");
            }
            finally
            {
                Thread.interrupted();
            }
            assertTrue(nic.isClosed());
            assertFalse(progress.get(0).isAlive(), "the progress thread has ended");
        }
    }
}
