package org.viadsm.via.provider.ucx;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

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

    private static final Set<String> SHARED_MEMORY_TRANSPORTS =
        Set.of("sm", "shm", "sysv", "posix", "cma", "knem", "xpmem");

    /**
     * The transports over which a fence orders a put before a later get, atomic or active message. sysv and posix
     * (and self) finish a put inside the call, a copy into the peer's mapped memory, so the put is in the peer's
     * memory before anything after it is issued. tcp has no puts, gets or atomics of its own: UCP emulates all three
     * with active messages on the endpoint's one active-message lane, one TCP stream, which the target performs in
     * the order they arrive. Not cma or knem (nor the aliases that include them): their puts are queued and copied
     * when the initiator's worker makes progress, while a later atomic over sysv or posix takes effect at once.
     */
    private static final Set<String> FENCED_TRANSPORTS = Set.of("tcp", "self", "sysv", "posix");

    private static final boolean FENCE_ORDERS_PUTS = fenceOrders(System.getenv("UCX_TLS"));

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

    /**
     * Whether a fence ({@link Ucp#fence}) suffices to make a put take effect before a get, an atomic or an active
     * message issued after it on the same endpoint, so that they need not wait for the put's flush. UCX 1.13's
     * {@code ucp_worker_fence} fences each interface (a no-op over tcp, a memory barrier over shared memory) and
     * does not order one lane of an endpoint against another; that is enough only where every transport
     * {@code UCX_TLS} names either finishes a put inside the call or runs everything on one ordered lane
     * ({@link #FENCED_TRANSPORTS}). Other transports may put puts, gets and atomics on lanes of their own, or finish
     * a put later (UCX 1.14 turned the fence into a flush of the endpoints where an endpoint has several lanes for
     * puts), so with them, with all transports, or with {@code UCX_TLS} unset, puts are flushed first.
     *
     * @return true if puts are ordered before later operations by a fence.
     */
    static boolean fenceOrdersPuts()
    {
        return FENCE_ORDERS_PUTS;
    }

    /**
     * {@link #fenceOrdersPuts()} for a value of {@code UCX_TLS}.
     *
     * @param transports the value, or null if unset.
     * @return true if it names only transports of {@link #FENCED_TRANSPORTS}.
     */
    static boolean fenceOrders(final String transports)
    {
        final List<String> names = transportNames(transports);
        return null != names && FENCED_TRANSPORTS.containsAll(names);
    }

    /**
     * Whether {@code UCX_TLS} lets UCX pick a shared-memory transport: it is unset, lists transports to exclude, or
     * names one or {@code all}.
     *
     * @return true if it does.
     */
    static boolean sharedMemoryAllowed()
    {
        final List<String> names = transportNames(System.getenv("UCX_TLS"));
        return null == names || names.contains("all") || names.stream().anyMatch(SHARED_MEMORY_TRANSPORTS::contains);
    }

    /**
     * The transports a value of {@code UCX_TLS} names, lower case.
     *
     * @param transports the value, or null if unset.
     * @return the names, or null if the value leaves the choice to UCX (unset, blank, or a list to exclude).
     */
    private static List<String> transportNames(final String transports)
    {
        if (null == transports || transports.isBlank() || transports.trim().startsWith("^"))
        {
            return null;
        }
        return Arrays.stream(transports.toLowerCase(Locale.ROOT).split(",")).map(String::trim).toList();
    }
}
