package org.viadsm.via.engine;

import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import org.viadsm.via.NicAttributes;
import org.viadsm.via.NicContext;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

/**
 * What every provider needs when it opens a NIC or reaches a peer: address parsing, a NIC identity and the
 * attributes of an emulated NIC.
 */
public final class ProviderSupport
{
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    private ProviderSupport()
    {
    }

    /**
     * The attributes of an emulated NIC with the given geometry.
     *
     * @param address         the NIC's address.
     * @param geometry        its area's sizes.
     * @param maxTransferSize its transfer limit.
     * @return the attributes.
     */
    public static NicAttributes attributes(
        final String address, final NicGeometry geometry, final int maxTransferSize)
    {
        return attributes(address, geometry, maxTransferSize, false);
    }

    /**
     * The attributes of an emulated NIC with the given geometry, saying whether its targets perform each VI's
     * operations in posting order ({@link NicAttributes#orderedTargetAccess()}).
     *
     * @param address             the NIC's address.
     * @param geometry            its area's sizes.
     * @param maxTransferSize     its transfer limit.
     * @param orderedTargetAccess whether a target performs each VI's operations in posting order.
     * @return the attributes.
     */
    public static NicAttributes attributes(final String address, final NicGeometry geometry,
        final int maxTransferSize, final boolean orderedTargetAccess)
    {
        return new NicAttributes.Builder()
            .name(address)
            .maxDescriptorsPerQueue(geometry.queueDepth())
            .maxSegmentsPerDescriptor(geometry.maxSegments())
            .maxTransferSize(maxTransferSize)
            .maxRegisteredBytes(1L << 40)
            .maxRegisteredRegions(geometry.maxRegions())
            .maxVis(geometry.maxVis())
            .maxCqEntries(geometry.cqSlots())
            .nativeMtu(4096)
            .rdmaReadSupport(true)
            .atomicsSupport(true)
            .orderedTargetAccess(orderedTargetAccess)
            .build();
    }

    /**
     * The geometry of a new NIC's area.
     *
     * @param context the NIC's settings, concluded.
     * @return the geometry.
     * @throws IllegalArgumentException if the area would exceed 2 GiB.
     */
    public static NicGeometry geometry(final NicContext context)
    {
        return new NicGeometry(context.maxVis(), context.queueDepth(), context.maxSegments(), context.maxCqs(),
            context.maxCqEntries(), context.maxRegions(), NicGeometry.ERROR_RING_CAPACITY_DEFAULT,
            NicGeometry.REQUEST_RING_CAPACITY_DEFAULT);
    }

    /**
     * A fresh NIC identity: random, never 0.
     *
     * @return the id.
     */
    public static long newNicId()
    {
        long id;
        do
        {
            id = ThreadLocalRandom.current().nextLong();
        }
        while (0 == id);
        return id;
    }

    /**
     * The name part of an address, checked.
     *
     * @param address the address.
     * @param scheme  the scheme it must have.
     * @return the name after {@code scheme:}.
     * @throws IllegalArgumentException if the scheme differs or the name is not 1 to 64 of {@code [A-Za-z0-9_.-]}.
     */
    public static String nameOf(final String address, final String scheme)
    {
        final String prefix = scheme + ':';
        if (null == address || !address.startsWith(prefix) || !NAME.matcher(address.substring(prefix.length()))
            .matches())
        {
            throw new IllegalArgumentException("address must be " + prefix + "<name> with a name of 1 to 64 " +
                "letters, digits, '_', '.' or '-': " + address);
        }
        return address.substring(prefix.length());
    }

    /**
     * The name part of a peer's address, for {@link NicTransport#resolvePeer(String)}.
     *
     * @param address the peer's address.
     * @param scheme  the scheme this provider reaches.
     * @return the name.
     * @throws ViaException with {@link ViaError#NOT_REACHABLE} if the address is not {@code scheme:<name>}.
     */
    public static String peerNameOf(final String address, final String scheme)
    {
        try
        {
            return nameOf(address, scheme);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ViaException(ViaError.NOT_REACHABLE, "a " + scheme + " NIC cannot reach " + address, ex);
        }
    }

    /**
     * The attributes of a peer VI as a connection request or a VI record describes them.
     *
     * @param reliability VIPL value of the reliability level.
     * @param maxTransfer maximum transfer size.
     * @param flags       RDMA enable bits of {@link RegistrationLayout}.
     * @return new attributes, without a protection tag.
     * @throws IllegalArgumentException if the reliability value is unknown.
     */
    public static ViAttributes viAttributes(final int reliability, final int maxTransfer, final int flags)
    {
        return new ViAttributes()
            .reliabilityLevel(reliabilityOf(reliability))
            .maxTransferSize(maxTransfer)
            .enableRdmaWrite((flags & RegistrationLayout.FLAG_RDMA_WRITE) != 0)
            .enableRdmaRead((flags & RegistrationLayout.FLAG_RDMA_READ) != 0);
    }

    /**
     * The reliability level of a VIPL value.
     *
     * @param vipValue 1, 2 or 4.
     * @return the level.
     * @throws IllegalArgumentException if the value is unknown.
     */
    public static ReliabilityLevel reliabilityOf(final int vipValue)
    {
        for (final ReliabilityLevel level : ReliabilityLevel.values())
        {
            if (level.vipValue() == vipValue)
            {
                return level;
            }
        }
        throw new IllegalArgumentException("unknown reliability level value: " + vipValue);
    }
}
