package org.viadsm.via;

/**
 * An incoming connection request, returned by {@link Nic#connectWait(long, long)}; the server accepts it on one
 * of its idle VIs or rejects it, as VIPL's {@code VipConnectAccept} and {@code VipConnectReject} do.
 */
public interface ConnectRequest
{
    /**
     * Address of the requesting NIC.
     *
     * @return the client's provider address.
     */
    String remoteAddress();

    /**
     * The discriminator the client asked for.
     *
     * @return the discriminator.
     */
    long discriminator();

    /**
     * Attributes of the requesting VI.
     *
     * @return a copy of the client's VI attributes.
     */
    ViAttributes remoteAttributes();

    /**
     * Connects the requesting VI to {@code vi}.
     *
     * @param vi an idle VI of this NIC.
     * @throws IllegalStateException if {@code vi} is not idle, or the request was already answered.
     * @throws ViaException          with {@link ViaError#NO_MATCH} if the attributes cannot be connected, or
     *                               {@link ViaError#NOT_REACHABLE} if the client gave up or went away.
     */
    void accept(Vi vi);

    /**
     * Refuses the request; the client's request fails with {@link ViaError#REJECT}.
     *
     * @throws IllegalStateException if the request was already answered.
     */
    void reject();
}
