package org.viadsm.via.provider.ucx;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;
import org.viadsm.via.provider.ChildPeer;
import org.viadsm.via.provider.PeerMain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.viadsm.via.descriptor.DescriptorStatus.DONE;
import static org.viadsm.via.descriptor.DescriptorStatus.OP_ATOMIC;

/**
 * jucx's copy of its native library, extracted under {@code java.io.tmpdir}, is gone from the disk as soon as the
 * provider has loaded it: a ucx process killed with SIGKILL leaves no {@code jucx<digits>} directory behind, and the
 * library, still mapped, keeps working.
 */
@Timeout(120)
class ExtractedLibraryTest
{
    private static final long T = PeerMain.TIMEOUT_NS;
    private static final Path TMP = Paths.get("/tmp");

    @Test
    void shouldFindOnlyAnUndeletedCopyInAnExtractionDirectoryOfTheTemporaryDirectory()
    {
        final String prefix = "7f2a4c000000-7f2a4c010000 r-xp 00000000 08:01 1234                       ";
        assertEquals(Paths.get("/tmp/jucx6427138/libjucx.so"), ExtractedLibrary.find(List.of(
            prefix + "/usr/lib/x86_64-linux-gnu/libucp.so.0.0.0",
            "7f2a4c020000-7f2a4c030000 rw-p 00000000 00:00 0",
            prefix + "/tmp/jucx6427138/libjucx.so"), TMP));
        assertNull(ExtractedLibrary.find(List.of(prefix + "/tmp/jucx6427138/libjucx.so (deleted)"), TMP),
            "already deleted");
        assertNull(ExtractedLibrary.find(List.of(prefix + "/usr/lib/libjucx.so"), TMP), "installed, not extracted");
        assertNull(ExtractedLibrary.find(List.of(prefix + "/tmp/libjucx.so"), TMP), "not in a directory of jucx's");
        assertNull(ExtractedLibrary.find(List.of(prefix + "/tmp/jucxlib/libjucx.so"), TMP), "not jucx<digits>");
        assertNull(ExtractedLibrary.find(List.of(prefix + "/tmp/a/jucx6427138/libjucx.so"), TMP), "not in tmpdir");
        assertNull(ExtractedLibrary.find(List.of(prefix + "/tmp/jucx6427138/libjucx.so.1"), TMP), "another file");
    }

    @Test
    void shouldHaveDeletedThisProcesssCopyOnceLoaded() throws IOException
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
        assertTrue(UcxNicProvider.isAvailable(), "UCX loads");
        assertCopyDeleted(Paths.get("/proc/self/maps"));
    }

    @Test
    void shouldLeaveNoCopyBehindANodeProcessKilledWithSigkill() throws IOException
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
        try (Nic nic = Nic.open("ucx:127.0.0.1:0"))
        {
            final ProtectionTag ptag = nic.createPtag();
            final MemoryRegion region = nic.registerMemory(nic.allocateMemory(4096),
                MemoryAttributes.remoteAccess(ptag));
            final Vi vi = nic.createVi(new ViAttributes().ptag(ptag)
                .reliabilityLevel(ReliabilityLevel.RELIABLE_RECEPTION), null, null);
            final ChildPeer child = new ChildPeer("ucx:127.0.0.1:0", nic.address(),
                ReliabilityLevel.RELIABLE_RECEPTION);
            try
            {
                // the library works without its file: the child's NIC connects and answers an atomic
                child.send("peer 5");
                vi.connectPeerRequest(child.address, 5, T);
                vi.connectPeerWait(T);
                child.expect("CONNECTED");
                vi.postSend(Descriptor.allocate(1).reset().fetchAndAdd(child.targetHandle, 0, 41)
                    .addSegment(region, 0, 8));
                assertEquals(DONE | OP_ATOMIC, vi.sendWait(T).status());
                assertEquals("WORD 41", child.command("word 0", "WORD"));
                final Path copy = assertCopyDeleted(Paths.get("/proc", Long.toString(child.pid), "maps"));

                child.kill();
                assertFalse(Files.exists(copy.getParent()), copy.getParent() + " left behind by the killed node");
            }
            finally
            {
                child.close();
            }
        }
    }

    /** The extracted copy a process maps: deleted, its directory too. */
    private static Path assertCopyDeleted(final Path maps) throws IOException
    {
        final String suffix = " (deleted)";
        final String line = Files.readAllLines(maps).stream()
            .filter(l -> l.contains("/" + ExtractedLibrary.FILE_NAME)).findFirst().orElse(null);
        assertNotNull(line, "libjucx.so is not mapped");
        assertTrue(line.endsWith(suffix), "the copy is still on disk: " + line);
        final Path copy = Paths.get(line.substring(line.indexOf('/'), line.length() - suffix.length()));
        assertTrue(copy.getParent().getFileName().toString().startsWith(ExtractedLibrary.DIRECTORY_PREFIX),
            copy.toString());
        assertFalse(Files.exists(copy), copy.toString());
        assertFalse(Files.exists(copy.getParent()), copy.getParent().toString());
        return copy;
    }
}
