package org.viadsm.via.engine;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

/**
 * A NIC's connection-request ring: requesters write {@link ConnectMessageFlyweight} records into the ring of the
 * NIC they want to reach, and the owner takes them off when it looks for requests.
 * <p>
 * <b>Note:</b> {@link #offer} may be called by any thread of any process that maps the area, one call per thread
 * at a time; {@code drain} by one thread at a time.
 */
final class RequestRing extends AreaRing<RequestRing.Consumer>
{
    /**
     * Receives requests taken off the ring; the flyweight is valid only during the call.
     */
    @FunctionalInterface
    interface Consumer
    {
        /**
         * Called once per request.
         *
         * @param type    {@link ConnectMessageFlyweight#TYPE_CLIENT_REQUEST} or {@code TYPE_PEER_REQUEST}.
         * @param message the request.
         */
        void onRequest(int type, ConnectMessageFlyweight message);
    }

    private final ConnectMessageFlyweight readFlyweight = new ConnectMessageFlyweight();

    /**
     * Binds to the request ring of an area.
     *
     * @param area     the NIC area.
     * @param geometry the area's geometry.
     */
    RequestRing(final AtomicBuffer area, final NicGeometry geometry)
    {
        super(area, geometry.requestRingOffset(), geometry.requestRingLength());
    }

    /**
     * Queues a request.
     *
     * @param type          the request type.
     * @param nicId         the requesting NIC's id.
     * @param address       the requesting NIC's address.
     * @param viId          the requesting VI.
     * @param sequence      the request's sequence number.
     * @param discriminator the discriminator.
     * @param reliability   VIPL value of the requesting VI's reliability level.
     * @param maxTransfer   the requesting VI's maximum transfer size.
     * @param flags         the requesting VI's RDMA enable bits.
     * @return false if the ring is full.
     */
    boolean offer(
        final int type,
        final long nicId,
        final String address,
        final int viId,
        final int sequence,
        final long discriminator,
        final int reliability,
        final int maxTransfer,
        final int flags)
    {
        final int index = tryClaim(type, ConnectMessageFlyweight.length(address));
        if (index <= 0)
        {
            return false;
        }
        new ConnectMessageFlyweight().wrap(buffer(), index)
            .nicId(nicId)
            .discriminator(discriminator)
            .sequence(sequence)
            .viId(viId)
            .reliability(reliability)
            .maxTransfer(maxTransfer)
            .flags(flags)
            .address(address);
        return commit(index);
    }

    /**
     * Hands a request to the consumer; drops a record that is not a well-formed request, which only a process that
     * scribbled on the area could have put there.
     */
    @Override
    void onRecord(
        final Consumer consumer, final int typeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        if (ConnectMessageFlyweight.isWellFormed(buffer, index, length))
        {
            consumer.onRequest(typeId, readFlyweight.wrap(buffer, index));
        }
    }
}
