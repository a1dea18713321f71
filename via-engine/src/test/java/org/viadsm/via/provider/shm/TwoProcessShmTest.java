package org.viadsm.via.provider.shm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.engine.SparseMemory;
import org.viadsm.via.provider.ChildPeer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The files of an shm NIC whose process was killed (the two-process behaviour of every provider is in
 * {@code TwoProcessTest}).
 */
@Timeout(120)
class TwoProcessShmTest
{
    private final String tag = Long.toString(ProcessHandle.current().pid(), 36) +
        Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
    private final String childAddress = "shm:c" + tag;
    private ChildPeer child;

    @AfterEach
    void tearDown()
    {
        if (null != child)
        {
            child.close();
        }
    }

    @Test
    void shouldRemoveFilesOfKilledChildWhenItsAddressIsOpenedAgain()
    {
        child = new ChildPeer(childAddress, "shm:p" + tag, ReliabilityLevel.RELIABLE_DELIVERY);
        final String childName = childAddress.substring(4);
        final Path dir = SparseMemory.directory();
        assertTrue(Files.exists(ShmFiles.nicFile(dir, childName)));
        assertTrue(Files.exists(ShmFiles.memFile(dir, childName, child.pid, 1)));

        child.kill();
        assertTrue(Files.exists(ShmFiles.nicFile(dir, childName)));
        try (Nic reopened = Nic.open(childAddress))
        {
            assertFalse(reopened.isClosed());
            assertFalse(Files.exists(ShmFiles.memFile(dir, childName, child.pid, 1)));
        }
        assertFalse(Files.exists(ShmFiles.nicFile(dir, childName)));
    }
}
