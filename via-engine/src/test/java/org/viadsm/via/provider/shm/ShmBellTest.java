package org.viadsm.via.provider.shm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.NicContext;
import org.viadsm.via.engine.Bell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bells of the shm provider within one process: the ringing and waiting sides, lending, and their files.
 * Every await is far longer than the test's timeout, so only a ring (or a wake-up) can end it.
 */
@Timeout(60)
class ShmBellTest
{
    private static final long LONG_NS = TimeUnit.MINUTES.toNanos(10);

    private final Path directory = new NicContext().conclude().shmDirectory();
    private final String name = "bell" + Long.toString(ProcessHandle.current().pid(), 36) +
        Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
    private final long pid = ProcessHandle.current().pid();
    private final ShmBells bells = new ShmBells(directory, name, pid, 2);
    private final ShmRinger ringer = new ShmRinger(directory, name, pid, 2);

    @AfterEach
    void tearDown()
    {
        ringer.close();
        bells.close();
    }

    @Test
    void shouldEndAnAwaitWhenRung() throws Exception
    {
        final Bell bell = bells.acquire();
        assertNotNull(bell);
        final CompletableFuture<Void> sleeper = CompletableFuture.runAsync(() -> bell.await(LONG_NS));

        ringer.ring(bell.id());

        sleeper.get(30, TimeUnit.SECONDS);
        assertEquals(1, ringer.rings());
    }

    @Test
    void shouldReturnAtOnceFromAnAwaitAfterARingThatCameFirst()
    {
        final Bell bell = bells.acquire();
        ringer.ring(bell.id());
        ringer.ring(bell.id());

        bell.await(LONG_NS);

        assertEquals(2, ringer.rings());
        assertEquals(2, bells.heard());
    }

    @Test
    void shouldEndAnAwaitOnWakeupFromThisProcess() throws Exception
    {
        final Bell bell = bells.acquire();
        final CompletableFuture<Void> sleeper = CompletableFuture.runAsync(() -> bell.await(LONG_NS));

        bell.wakeup();

        sleeper.get(30, TimeUnit.SECONDS);
        assertEquals(0, ringer.rings());
    }

    @Test
    void shouldLendEachBellToOneThreadAtATimeUpToTheMaximum()
    {
        final Bell first = bells.acquire();
        final Bell second = bells.acquire();
        assertNotSame(first, second);
        assertEquals(0, first.id());
        assertEquals(1, second.id());
        assertNull(bells.acquire(), "a third waiter polls");

        bells.release(first);

        assertSame(first, bells.acquire());
        assertEquals(2, bells.made());
    }

    @Test
    void shouldIgnoreRingsOfBellsThatDoNotExist()
    {
        ringer.ring(0);
        ringer.ring(5);
        ringer.ring(-1);

        assertEquals(0, ringer.rings());
        assertEquals(0, bells.made());
    }

    @Test
    void shouldRemoveTheFilesOnCloseAndLendNoMore()
    {
        final Bell bell = bells.acquire();
        final Path file = ShmFiles.bellFile(directory, name, pid, bell.id());
        assertTrue(Files.exists(file));

        bells.close();

        assertFalse(Files.exists(file));
        assertNull(bells.acquire());
        ringer.ring(0);
        assertEquals(0, ringer.rings());
    }

    @Test
    void shouldSweepTheBellFileOfADeadProcess() throws Exception
    {
        final Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        final Path file = ShmFiles.bellFile(directory, name, dead.pid(), 0);
        Files.createFile(file);

        ShmNicProvider.removeStaleFiles();

        assertFalse(Files.exists(file));
    }
}
