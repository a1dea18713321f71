package org.viadsm.via.provider.ucx;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Locale;
import java.util.Set;

/**
 * Checks a peer's packed worker address before UCX unpacks it. UCX 1.13 unpacks an address without knowing its
 * length and trusts every field: a short address is read past its end, a lane index beyond its lane table is
 * written past it, a negative overhead or latency makes a transport's score negative and fails an assertion in
 * the lane selection, which aborts the process. So the address is walked here as UCX walks it (in non-unified
 * mode, the packing of {@code ucp_worker_get_address}): header, worker id, client id and name, then each device
 * (memory domain, device address) with its interfaces (attributes, interface address) and their endpoint
 * addresses, every length within the bytes given, every count and index within UCX's tables, every attribute a
 * finite number in its range, and the walk must end at the address's last byte. In unified mode
 * ({@code UCX_UNIFIED_MODE=y}), whose interfaces are packed as indices into the peer's own resources, only the
 * format version is checked.
 */
final class WorkerAddressCheck
{
    /** {@code UCP_MAX_RESOURCES}. */
    static final int MAX_RESOURCES = 128;
    /** {@code UCP_MAX_LANES}. */
    static final int MAX_LANES = 6;
    /** {@code UCP_MAX_MDS}. */
    static final int MAX_MDS = 64;

    private static final boolean UNIFIED_MODE = isUnifiedMode(System.getenv("UCX_UNIFIED_MODE"));
    private static final int VERSION_MASK = 0x0F;
    private static final int VERSION_1 = 0;
    private static final int VERSION_2 = 1;
    private static final int FLAG_DEBUG_INFO = 1;
    private static final int FLAG_WORKER_UUID = 1 << 1;
    private static final int FLAG_CLIENT_ID = 1 << 2;
    private static final int NULL_RESOURCE = 0xFF;
    private static final int FLAG_LAST = 0x80;
    private static final int FLAG_HAS_EP_ADDR = 0x40;
    private static final int FLAG_NUM_PATHS = 0x40;
    private static final int FLAG_SYS_DEVICE = 0x20;
    private static final int FLAG_MD_EMPTY_DEV = 0x80;
    private static final int MD_MASK_V1 = 0x1F;
    private static final int MD_MASK_V2 = 0x7F;
    private static final int DEVICE_LENGTH_MASK = 0x1F;
    private static final int IFACE_LENGTH_MASK = 0x3F;
    private static final int IFACE_ATTR_V2_LENGTH = 8;

    private final ByteBuffer bytes;
    private final int version;

    private WorkerAddressCheck(final byte[] address)
    {
        this.bytes = ByteBuffer.wrap(address).order(ByteOrder.nativeOrder());
        this.version = address[0] & VERSION_MASK;
    }

    /**
     * What is wrong with a packed worker address, or null if UCX may unpack it.
     *
     * @param address the address as the peer sent it.
     * @return null, or the fault, e.g. "device 0 interface 2 declares 40 address bytes, 12 remain".
     */
    static String check(final byte[] address)
    {
        if (0 == address.length)
        {
            return "it is empty";
        }
        final WorkerAddressCheck walk = new WorkerAddressCheck(address);
        if (VERSION_1 != walk.version && VERSION_2 != walk.version)
        {
            return "format version " + walk.version + " is not one UCX packs (0 or 1)";
        }
        if (UNIFIED_MODE)
        {
            return null;
        }
        try
        {
            walk.walk();
            return walk.bytes.hasRemaining() ? walk.bytes.remaining() + " bytes follow its last device" : null;
        }
        catch (final BufferUnderflowException | IndexOutOfBoundsException ex)
        {
            return "it ends before its last field (" + address.length + " bytes)";
        }
        catch (final IllegalArgumentException ex)
        {
            return ex.getMessage();
        }
    }

    private void walk()
    {
        final int flags;
        if (VERSION_1 == version)
        {
            flags = (bytes.get() & 0xFF) >>> 4;
            // a version-1 address always carries the worker's id, flagged or not
            bytes.getLong();
        }
        else
        {
            bytes.get();
            flags = bytes.get() & 0xFF;
            if ((flags & FLAG_WORKER_UUID) != 0)
            {
                bytes.getLong();
            }
        }
        if ((flags & FLAG_CLIENT_ID) != 0)
        {
            bytes.getLong();
        }
        if ((flags & FLAG_DEBUG_INFO) != 0)
        {
            skip(bytes.get() & 0xFF, "the worker name");
        }
        if (NULL_RESOURCE == (bytes.get(bytes.position()) & 0xFF))
        {
            bytes.get();
            return;
        }
        int interfaces = 0;
        for (int device = 0; ; device++)
        {
            final String where = "device " + device;
            final boolean empty = (bytes.get(bytes.position()) & FLAG_MD_EMPTY_DEV) != 0;
            final int mdIndex = extended(VERSION_1 == version ? MD_MASK_V1 : MD_MASK_V2);
            if (mdIndex >= MAX_MDS)
            {
                throw fault(where + " names memory domain " + mdIndex + ", UCX has at most " + MAX_MDS);
            }
            final int deviceFlags = bytes.get(bytes.position()) & 0xFF & ~DEVICE_LENGTH_MASK;
            final int deviceLength = extended(DEVICE_LENGTH_MASK);
            if ((deviceFlags & FLAG_NUM_PATHS) != 0)
            {
                bytes.get();
            }
            if ((deviceFlags & FLAG_SYS_DEVICE) != 0)
            {
                bytes.get();
            }
            skip(deviceLength, where + "'s address");
            boolean last = empty;
            for (int iface = 0; !last; iface++)
            {
                if (++interfaces > MAX_RESOURCES)
                {
                    throw fault("it lists more than " + MAX_RESOURCES + " interfaces");
                }
                last = walkInterface(where + " interface " + iface);
            }
            if ((deviceFlags & FLAG_LAST) != 0)
            {
                return;
            }
        }
    }

    /**
     * One interface: its transport's checksum, attributes, address and endpoint addresses.
     *
     * @return whether it is its device's last.
     */
    private boolean walkInterface(final String where)
    {
        bytes.getShort();
        if (VERSION_1 == version)
        {
            final float overhead = bytes.getFloat();
            final float bandwidth = bytes.getFloat();
            final float latency = bytes.getFloat();
            bytes.getInt();
            if (!Float.isFinite(overhead) || overhead < 0 || !Float.isFinite(latency) || latency < 0 ||
                !Float.isFinite(bandwidth) || 0 == bandwidth)
            {
                throw fault(where + " has overhead " + overhead + ", latency " + latency + " and bandwidth " +
                    bandwidth);
            }
        }
        else
        {
            skip(IFACE_ATTR_V2_LENGTH, where + "'s attributes");
        }
        final int flags = bytes.get(bytes.position()) & 0xFF;
        skip(extended(IFACE_LENGTH_MASK), where + "'s address");
        boolean last = (flags & FLAG_HAS_EP_ADDR) == 0;
        for (int endpoint = 0; !last; endpoint++)
        {
            if (endpoint >= MAX_LANES)
            {
                throw fault(where + " lists more than " + MAX_LANES + " endpoint addresses");
            }
            skip(bytes.get() & 0xFF, where + " endpoint " + endpoint + "'s address");
            final int lane = bytes.get() & 0xFF;
            if ((lane & IFACE_LENGTH_MASK) >= MAX_LANES)
            {
                throw fault(where + " endpoint " + endpoint + " names lane " + (lane & IFACE_LENGTH_MASK) +
                    ", UCX has at most " + MAX_LANES);
            }
            last = (lane & FLAG_LAST) != 0;
        }
        return (flags & FLAG_LAST) != 0;
    }

    /** A byte's value under {@code mask}; in version 2, a value equal to the mask continues in the next byte. */
    private int extended(final int mask)
    {
        final int value = bytes.get() & mask;
        return VERSION_1 != version && value == mask ? bytes.get() & 0xFF : value;
    }

    private void skip(final int length, final String what)
    {
        if (length > bytes.remaining())
        {
            throw fault(what + " of " + length + " bytes runs past the end (" + bytes.remaining() + " bytes remain)");
        }
        bytes.position(bytes.position() + length);
    }

    /** UCX's reading of a yes/no setting. */
    static boolean isUnifiedMode(final String setting)
    {
        return null != setting && Set.of("y", "yes", "on", "1", "true")
            .contains(setting.trim().toLowerCase(Locale.ROOT));
    }

    private static IllegalArgumentException fault(final String detail)
    {
        return new IllegalArgumentException(detail);
    }
}
