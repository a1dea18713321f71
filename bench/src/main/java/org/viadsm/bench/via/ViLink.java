package org.viadsm.bench.via;

import org.HdrHistogram.Histogram;
import org.viadsm.bench.BenchCase;
import org.viadsm.via.Vi;
import org.viadsm.via.descriptor.Descriptor;

/**
 * A connection between this process's endpoint and the peer process's endpoint on one provider, with the peer's
 * region handle for RDMA.
 */
final class ViLink implements AutoCloseable
{
    final String scheme;
    final ViEndpoint local;
    final int peerHandle;

    private ViLink(final String scheme, final ViEndpoint local, final int peerHandle)
    {
        this.scheme = scheme;
        this.local = local;
        this.peerHandle = peerHandle;
    }

    /**
     * Opens an endpoint here and one in the peer, both with {@code coldLength} bytes of cold pages, and connects
     * their VIs peer to peer.
     *
     * @param peer         the peer process.
     * @param localAddress this side's NIC address.
     * @param peerAddress  the address the peer opens (port 0 for TCP picks a free port).
     * @param coldLength   cold bytes on each side.
     * @return the connected link.
     */
    static ViLink connect(
        final PeerProcess peer, final String localAddress, final String peerAddress, final int coldLength)
    {
        final String scheme = localAddress.substring(0, localAddress.indexOf(':'));
        final ViEndpoint local = new ViEndpoint(localAddress, coldLength);
        try
        {
            final String[] opened = peer.command("open " + peerAddress + " " + coldLength, "OPENED");
            peer.send("connect " + scheme + " " + local.nic.address());
            local.connectRequest(opened[0]);
            local.connectWait();
            peer.expect("CONNECTED");
            return new ViLink(scheme, local, Integer.parseInt(opened[1]));
        }
        catch (final RuntimeException ex)
        {
            local.close();
            throw ex;
        }
    }

    /**
     * Runs a VIA ping-pong with the peer as responder.
     *
     * @param peer       the peer process.
     * @param length     bytes per message.
     * @param rdmaWrite  RDMA Write with immediate data, else Send.
     * @param warmup     untimed round trips.
     * @param iterations timed round trips.
     * @param budgetNs   time budget of the run.
     * @return round-trip times in ns.
     */
    Histogram pingPong(
        final PeerProcess peer, final int length, final boolean rdmaWrite, final int warmup, final int iterations,
        final long budgetNs)
    {
        peer.send("echo " + scheme + " " + (rdmaWrite ? "write" : "send") + " " + length + " " +
            local.region.handle());
        return peer.initiate(new ViPingPong(local, length, rdmaWrite, peerHandle), warmup, iterations,
            budgetNs);
    }

    /**
     * Posts a descriptor on this side's VI and waits for its completion.
     *
     * @param descriptor the descriptor, built.
     * @param what       what it does, for the failure's message (a constant: nothing is formatted unless it fails).
     * @param where      the page or offset it works on, appended to {@code what} in the message.
     * @throws IllegalStateException if it does not complete in time or completes in error.
     */
    void postSendAndWait(final Descriptor descriptor, final String what, final long where)
    {
        final Vi vi = local.vi;
        vi.postSend(descriptor);
        final Descriptor done = vi.sendWait(BenchCase.TIMEOUT_NS);
        if (null == done || done.isError())
        {
            throw new IllegalStateException(what + " " + where + " failed: status=0x" +
                Integer.toHexString(descriptor.status()));
        }
    }

    @Override
    public void close()
    {
        local.close();
    }
}
