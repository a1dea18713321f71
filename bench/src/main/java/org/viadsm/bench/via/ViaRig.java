package org.viadsm.bench.via;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.CloseHelper;
import org.openucx.jucx.ucp.UcpRemoteKey;
import org.viadsm.via.provider.ucx.UcxNicProvider;

/**
 * What the two-process cases share, made on first use: the peer process, the shm and ucx links with the peer (with
 * cold pages), the raw file of the baselines, the raw UCX of the ucx baselines, and the tcp link.
 */
final class ViaRig implements AutoCloseable
{
    private static final AtomicInteger RIGS = new AtomicInteger();

    private final int coldLength;
    private final String name = "vb" + ProcessHandle.current().pid() + "x" + RIGS.incrementAndGet();
    private PeerProcess peer;
    private ViLink shm;
    private ViLink tcp;
    private ViLink ucx;
    private RawMemory raw;
    private RawUcx rawUcx;
    private UcpRemoteKey rawUcxPeerKey;
    private long rawUcxPeerAddress;

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

    /**
     * Why the ucx rows cannot run here.
     *
     * @return the reason, or null if UCX is installed.
     */
    static String ucxUnavailableReason()
    {
        return UcxNicProvider.isAvailable() ? null : "UCX is not installed (apt install libucx0)";
    }

    /**
     * Opens what the ucx rows use: the ucx link with the peer and both processes' raw UCX.
     */
    void openUcx()
    {
        ucx();
        rawUcx();
    }

    ViLink ucx()
    {
        if (null == ucx)
        {
            ucx = ViLink.connect(peer(), "ucx:127.0.0.1:0", "ucx:127.0.0.1:0", coldLength);
        }
        return ucx;
    }

    /**
     * This process's raw UCX, with endpoints both ways between it and the peer's and the peer's memory key.
     */
    RawUcx rawUcx()
    {
        if (null == rawUcx)
        {
            final RawUcx local = new RawUcx(Math.max(coldLength, ViEndpoint.PAGE_LENGTH));
            try
            {
                final String[] peerSide = peer().command("jucx " + Math.max(coldLength, ViEndpoint.PAGE_LENGTH),
                    "JUCX");
                local.connect(peerSide[0]);
                rawUcxPeerAddress = Long.parseLong(peerSide[1]);
                rawUcxPeerKey = local.endpoint().unpackRemoteKey(RawUcx.unhex(peerSide[2]));
                peer().command("jucx-connect " + local.describe().split(" ")[0], "LINKED");
            }
            catch (final RuntimeException ex)
            {
                local.close();
                throw ex;
            }
            rawUcx = local;
        }
        return rawUcx;
    }

    UcpRemoteKey rawUcxPeerKey()
    {
        rawUcx();
        return rawUcxPeerKey;
    }

    long rawUcxPeerAddress()
    {
        rawUcx();
        return rawUcxPeerAddress;
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
        if (null != rawUcxPeerKey)
        {
            rawUcxPeerKey.close();
        }
        CloseHelper.quietCloseAll(peer, shm, tcp, ucx, raw, rawUcx);
        peer = null;
        shm = null;
        tcp = null;
        ucx = null;
        raw = null;
        rawUcx = null;
        rawUcxPeerKey = null;
    }
}
