package org.viadsm.bench.via;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.CloseHelper;

/**
 * What the two-process cases share, made on first use: the peer process, the shm link with the peer (with cold
 * pages), the raw file of the baselines, and the tcp link.
 */
final class ViaRig implements AutoCloseable
{
    private static final AtomicInteger RIGS = new AtomicInteger();

    private final int coldLength;
    private final String name = "vb" + ProcessHandle.current().pid() + "x" + RIGS.incrementAndGet();
    private PeerProcess peer;
    private ViLink shm;
    private ViLink tcp;
    private RawMemory raw;

    /**
     * A rig, nothing started yet.
     *
     * @param coldLength bytes of cold pages in each side's shm memory and in each cold area of the raw file.
     */
    ViaRig(final int coldLength)
    {
        this.coldLength = coldLength;
    }

    int coldLength()
    {
        return coldLength;
    }

    PeerProcess peer()
    {
        if (null == peer)
        {
            peer = PeerProcess.start();
        }
        return peer;
    }

    ViLink shm()
    {
        if (null == shm)
        {
            shm = ViLink.connect(peer(), "shm:" + name + "i", "shm:" + name + "p", coldLength);
        }
        return shm;
    }

    ViLink tcp()
    {
        if (null == tcp)
        {
            tcp = ViLink.connect(peer(), "tcp:127.0.0.1:0", "tcp:127.0.0.1:0", 0);
        }
        return tcp;
    }

    RawMemory raw()
    {
        if (null == raw)
        {
            final Path file = SpinParkIdle.SETTINGS.shmDirectory().resolve("viadsm-" + name + ".raw");
            raw = RawMemory.create(file, coldLength);
            try
            {
                peer().command("raw " + file + " " + coldLength, "RAW");
            }
            finally
            {
                delete(file);
            }
        }
        return raw;
    }

    private static void delete(final Path file)
    {
        try
        {
            // both sides have mapped it: the memory stays until they unmap or exit
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete " + file, ex);
        }
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(peer, shm, tcp, raw);
        peer = null;
        shm = null;
        tcp = null;
        raw = null;
    }
}
