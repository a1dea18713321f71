package org.viadsm.via.provider.shm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.NicProviders;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.NicLayout;
import org.viadsm.via.memory.MemoryAttributes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class ShmNicTest
{
    private static final long DEAD_PID = Long.MAX_VALUE / 2;
    private final String name = "s" + Long.toString(ProcessHandle.current().pid(), 36) +
        Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
    private final Path dir = new NicContext().conclude().shmDirectory();
    private final long pid = ProcessHandle.current().pid();

    @Test
    void shouldBeFoundByScheme()
    {
        assertTrue(NicProviders.provider("shm:x") instanceof ShmNicProvider);
    }

    @Test
    void shouldCreateFilesAndRemoveThemOnFreeAndClose()
    {
        final Nic nic = Nic.open("shm:" + name);
        assertTrue(Files.exists(ShmFiles.nicFile(dir, name)));
        final ByteBuffer first = nic.allocateMemory(8192);
        nic.allocateMemory(1 << 30);
        assertTrue(Files.exists(ShmFiles.memFile(dir, name, pid, 1)));
        assertTrue(Files.exists(ShmFiles.memFile(dir, name, pid, 2)));
        nic.freeMemory(first);
        assertFalse(Files.exists(ShmFiles.memFile(dir, name, pid, 1)));
        nic.close();
        assertFalse(Files.exists(ShmFiles.nicFile(dir, name)));
        assertFalse(Files.exists(ShmFiles.memFile(dir, name, pid, 2)));
    }

    @Test
    void shouldRegisterOnlyMemoryItAllocated()
    {
        try (Nic nic = Nic.open("shm:" + name))
        {
            final MemoryAttributes attributes = MemoryAttributes.localOnly(nic.createPtag());
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> nic.registerMemory(ByteBuffer.allocateDirect(4096), attributes));
            assertTrue(ex.getMessage().contains("allocateMemory"), ex.getMessage());
            final ByteBuffer memory = nic.allocateMemory(8192);
            nic.registerMemory(memory.slice(4096, 4096), attributes);
            assertThrows(IllegalArgumentException.class,
                () -> nic.registerMemory(ByteBuffer.allocateDirect(8192).slice(0, 16), attributes));
        }
    }

    @Test
    void shouldRemoveFilesOfDeadOwnersWhenOpening() throws IOException
    {
        final Path staleNic = ShmFiles.nicFile(dir, name);
        writeStaleHeader(staleNic);
        final Path staleMem = ShmFiles.memFile(dir, name, DEAD_PID, 3);
        final Path staleTmp = ShmFiles.tmpNicFile(dir, name + ".x", DEAD_PID, 1);
        Files.write(staleMem, new byte[16]);
        Files.write(staleTmp, new byte[16]);
        final Path liveMem = ShmFiles.memFile(dir, name + "-other", pid, 3);
        Files.write(liveMem, new byte[16]);
        try
        {
            assertTrue(ShmFiles.isStale(staleNic));
            try (Nic nic = Nic.open("shm:" + name))
            {
                assertFalse(nic.isClosed());
                assertFalse(Files.exists(staleMem));
                assertFalse(Files.exists(staleTmp));
                assertTrue(Files.exists(liveMem));
                assertFalse(ShmFiles.isStale(staleNic));
            }
        }
        finally
        {
            Files.deleteIfExists(liveMem);
            Files.deleteIfExists(staleMem);
            Files.deleteIfExists(staleTmp);
        }
    }

    @Test
    void closeShouldLeaveTheNicFileAnotherNicNowHolds() throws IOException
    {
        final Path file = ShmFiles.nicFile(dir, name);
        final Nic other = Nic.open("shm:" + name + "o");
        try
        {
            final Nic nic = Nic.open("shm:" + name);
            Files.delete(file);
            Files.createLink(file, ShmFiles.nicFile(dir, name + "o"));
            nic.close();
            assertTrue(Files.exists(file), "the file under the name is another NIC's");
            assertEquals(((EngineNic)other).nicId(), ShmFiles.nicIdOf(file));
        }
        finally
        {
            other.close();
            Files.deleteIfExists(file);
        }
    }

    @Test
    void concurrentOpensOfAStaleNameShouldLeaveExactlyOneNicWithItsFile() throws Exception
    {
        final Path staleNic = ShmFiles.nicFile(dir, name);
        final List<Nic> opened = new CopyOnWriteArrayList<>();
        final List<ViaError> refused = new CopyOnWriteArrayList<>();
        final ExecutorService pool = Executors.newFixedThreadPool(4);
        try
        {
            for (int round = 0; round < 10; round++)
            {
                writeStaleHeader(staleNic);
                final CyclicBarrier start = new CyclicBarrier(4);
                final List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 4; t++)
                {
                    futures.add(pool.submit(() ->
                    {
                        start.await();
                        try
                        {
                            opened.add(Nic.open("shm:" + name));
                        }
                        catch (final ViaException ex)
                        {
                            refused.add(ex.error());
                        }
                        return null;
                    }));
                }
                for (final Future<?> future : futures)
                {
                    future.get(20, TimeUnit.SECONDS);
                }
                assertEquals(1, opened.size(), "round " + round);
                assertEquals(List.of(ViaError.ERROR_RESOURCE, ViaError.ERROR_RESOURCE, ViaError.ERROR_RESOURCE),
                    refused);
                assertEquals(((EngineNic)opened.get(0)).nicId(), ShmFiles.nicIdOf(staleNic));
                opened.remove(0).close();
                refused.clear();
                assertFalse(Files.exists(staleNic));
            }
        }
        finally
        {
            pool.shutdownNow();
            for (final Nic nic : opened)
            {
                nic.close();
            }
            Files.deleteIfExists(staleNic);
        }
    }

    private static void writeStaleHeader(final Path file) throws IOException
    {
        final ByteBuffer header = ByteBuffer.allocate(NicLayout.HEADER_LENGTH).order(ByteOrder.nativeOrder());
        header.putLong(NicLayout.MAGIC_OFFSET, NicLayout.MAGIC);
        header.putInt(NicLayout.VERSION_OFFSET, NicLayout.LAYOUT_VERSION);
        header.putInt(NicLayout.STATE_OFFSET, NicLayout.STATE_OPEN);
        header.putLong(NicLayout.OWNER_PID_OFFSET, DEAD_PID);
        Files.write(file, header.array());
    }
}
