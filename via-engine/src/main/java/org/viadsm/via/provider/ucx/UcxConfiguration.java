package org.viadsm.via.provider.ucx;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Locale;

import org.viadsm.via.ProgressThread;

/**
 * What follows for the ucx provider from UCX's own environment. UCX performs one-sided operations over shared
 * memory and RDMA without the target, but over TCP it emulates them in software, so the target must make progress:
 * a NIC starts a progress thread once it connects to a peer on another host, or to any peer when {@code UCX_TLS}
 * names no shared-memory transport, unless its context says otherwise
 * ({@link org.viadsm.via.NicContext#ucxProgressThread()}).
 */
final class UcxConfiguration
{
    /** Bound on a wait of the control path (a mirror update, a flush of it). */
    static final long CONTROL_TIMEOUT_NS = 10_000_000_000L;

    private static final String[] SHARED_MEMORY_TRANSPORTS = {"sm", "shm", "sysv", "posix", "cma", "knem", "xpmem"};

    private UcxConfiguration()
    {
    }

    /**
     * Whether a link to a peer at this address calls for a progress thread: always or never if the context says
     * so, else if UCX may talk TCP over it.
     */
    static boolean needsProgressThread(final ProgressThread choice, final String peerAddress)
    {
        if (ProgressThread.AUTO != choice)
        {
            return ProgressThread.ALWAYS == choice;
        }
        if (!sharedMemoryAllowed())
        {
            return true;
        }
        try
        {
            final InetAddress host = UcxAddress.parse(peerAddress).socketAddress().getAddress();
            return !host.isLoopbackAddress() && null == NetworkInterface.getByInetAddress(host);
        }
        catch (final IllegalArgumentException | SocketException ex)
        {
            return true;
        }
    }

    private static boolean sharedMemoryAllowed()
    {
        final String transports = System.getenv("UCX_TLS");
        if (null == transports || transports.isBlank() || transports.trim().startsWith("^"))
        {
            return true;
        }
        for (final String name : transports.toLowerCase(Locale.ROOT).split(","))
        {
            for (final String shared : SHARED_MEMORY_TRANSPORTS)
            {
                if (name.trim().equals(shared) || "all".equals(name.trim()))
                {
                    return true;
                }
            }
        }
        return false;
    }
}
