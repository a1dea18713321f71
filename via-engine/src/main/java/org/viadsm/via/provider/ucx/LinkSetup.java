package org.viadsm.via.provider.ucx;

import org.openucx.jucx.ucp.UcpEndpoint;
import org.viadsm.via.engine.ViConnection;

/**
 * The steps both sides of a connection take to make and establish their link, once they know the other side's
 * VI from its handshake.
 */
final class LinkSetup
{
    private LinkSetup()
    {
    }

    /**
     * Makes a VI's link: a data endpoint to the peer's worker address beside the control endpoint, both reporting
     * failures to the link, which takes the peer's messages from now on.
     *
     * @throws IllegalArgumentException if the peer's worker address is malformed (nothing is left open then).
     * @throws RuntimeException if UCX cannot make the data endpoint (nothing is left open then).
     */
    static UcxLink open(final UcxTransport nic, final ViConnection vi, final long token, final Handshake peer,
        final UcpEndpoint control, final UcxEndpoints.Sink controlSink, final RegistrationMirror mirror)
    {
        UcpEndpoint data = null;
        try
        {
            final UcxEndpoints.Sink dataSink = new UcxEndpoints.Sink();
            data = UcxEndpoints.data(nic, peer.workerAddress, peer.address, dataSink);
            final UcxLink link = new UcxLink(nic, vi, token, peer, control, data, mirror);
            controlSink.link(link);
            dataSink.link(link);
            nic.attach(link);
            return link;
        }
        catch (final RuntimeException ex)
        {
            UcxEndpoints.close(nic, data);
            throw ex;
        }
    }

    /**
     * The VI becomes connected over its link.
     *
     * @return false if it stopped connecting meanwhile (the link is disconnected then).
     */
    static boolean establish(final UcxTransport nic, final ViConnection vi, final UcxLink link, final Handshake peer)
    {
        vi.onConnected(link, peer.address, peer.attributes());
        nic.onLinkEstablished(link, peer.address);
        if (!vi.establish(peer.nicId, peer.viId, Math.min(vi.maxTransfer(), peer.maxTransfer)))
        {
            link.disconnect("VI " + vi.id() + " of " + nic.address() + " stopped connecting");
            return false;
        }
        return true;
    }

    /**
     * A request or acceptance describing a VI of this NIC and the mirror it keeps of the peer's registrations, and
     * whether this NIC will send heartbeats on the link to {@code peerAddress}.
     */
    static Handshake describe(final UcxTransport nic, final int type, final ViConnection vi, final int peerViId,
        final int sequence, final long discriminator, final long token, final RegistrationMirror mirror,
        final String peerAddress)
    {
        return new Handshake(type, vi.id(), peerViId, sequence, nic.nicId(), discriminator, token, mirror.address(),
            vi.reliability().vipValue(), vi.maxTransfer(), vi.flags(), vi.ptag(), mirror.entries(),
            nic.sendsHeartbeatsTo(peerAddress) ? Handshake.OPTION_HEARTBEATS : 0, nic.workerAddress(),
            mirror.packedKey(), nic.address());
    }
}
