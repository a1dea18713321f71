package org.viadsm.via.provider.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.engine.ConnectMessageFlyweight;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.ViConnection;
import org.viadsm.via.engine.ProviderSupport;
import org.viadsm.via.internal.HostPortAddress;

/**
 * The payload of a request or accept frame, a {@link ConnectMessageFlyweight}: which NIC and VI speaks, with what
 * reliability level, transfer size and RDMA enable bits, and the address its NIC listens on. Writes it, and reads
 * it back checked.
 */
final class ViDescription
{

    final long nicId;
    final long discriminator;
    final int sequence;
    final int viId;
    final int reliability;
    final int maxTransfer;
    final int flags;
    final String address;
    final HostPortAddress listener;

    private ViDescription(final ConnectMessageFlyweight message, final HostPortAddress listener)
    {
        this.nicId = message.nicId();
        this.discriminator = message.discriminator();
        this.sequence = message.sequence();
        this.viId = message.viId();
        this.reliability = message.reliability();
        this.maxTransfer = message.maxTransfer();
        this.flags = message.flags();
        this.address = message.address();
        this.listener = listener;
    }

    /**
     * Stages a handshake frame describing a VI of this NIC, and flushes it; under the channel's lock.
     */
    static void send(
        final TcpChannel channel,
        final int type,
        final EngineNic nic,
        final ViConnection vi,
        final int destinationVi,
        final int sequence,
        final long discriminator)
    {
        channel.beginFrame(type, ConnectMessageFlyweight.length(nic.address()), vi.id(), destinationVi)
            .sequence(sequence);
        new ConnectMessageFlyweight().wrap(channel.frameBuffer(), channel.payloadOffset())
            .nicId(nic.nicId())
            .discriminator(discriminator)
            .sequence(sequence)
            .viId(vi.id())
            .reliability(vi.reliability().vipValue())
            .maxTransfer(vi.maxTransfer())
            .flags(vi.flags())
            .address(nic.address());
        channel.commitFrame();
        channel.flush();
    }

    /**
     * Stages a handshake frame without payload, and flushes it; under the channel's lock.
     */
    static void sendBare(
        final TcpChannel channel, final int type, final int sourceVi, final int destinationVi, final int sequence)
    {
        channel.beginFrame(type, 0, sourceVi, destinationVi).sequence(sequence);
        channel.commitFrame();
        channel.flush();
    }

    /**
     * Reads a description, checking every field.
     *
     * @return the description, or null if the payload is malformed.
     */
    static ViDescription read(final UnsafeBuffer buffer, final int offset, final int length)
    {
        if (!ConnectMessageFlyweight.isWellFormed(buffer, offset, length))
        {
            return null;
        }
        final ConnectMessageFlyweight message = new ConnectMessageFlyweight().wrap(buffer, offset);
        try
        {
            return new ViDescription(message, TcpAddress.parse(message.address()));
        }
        catch (final IllegalArgumentException ex)
        {
            return null;
        }
    }

    ViAttributes attributes()
    {
        return ProviderSupport.viAttributes(reliability, maxTransfer, flags);
    }

    @Override
    public String toString()
    {
        return "VI " + viId + " of " + address;
    }
}
