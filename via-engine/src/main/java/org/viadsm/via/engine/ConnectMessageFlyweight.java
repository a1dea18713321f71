package org.viadsm.via.engine;

import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.viadsm.via.ReliabilityLevel;

/**
 * Flyweight over a connection request in a NIC's request ring: a client's request, or one side of a peer-to-peer
 * request.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                  Requesting NIC Id (long)                     |  0
 *  +---------------------------------------------------------------+
 *  |                     Discriminator (long)                      |  8
 *  +---------------------------------------------------------------+
 *  |                    Request Sequence Number                    |  16
 *  +---------------------------------------------------------------+
 *  |                      Requesting VI Id                         |  20
 *  +---------------------------------------------------------------+
 *  |                Reliability Level (VIPL value)                 |  24
 *  +---------------------------------------------------------------+
 *  |                   Maximum Transfer Size                       |  28
 *  +---------------------------------------------------------------+
 *  |                      RDMA Enable Bits                         |  32
 *  +---------------------------------------------------------------+
 *  |      Requesting NIC Address: ASCII, 32-bit length prefix      |  36
 *  +---------------------------------------------------------------+
 * </pre>
 * <b>Note:</b> not thread-safe: wrap and use it from one thread.
 */
public final class ConnectMessageFlyweight
{
    /** Record type of a client's request. */
    public static final int TYPE_CLIENT_REQUEST = 1;
    /** Record type of a peer-to-peer request. */
    public static final int TYPE_PEER_REQUEST = 2;

    private static final int NIC_ID_OFFSET = 0;
    private static final int DISCRIMINATOR_OFFSET = 8;
    private static final int SEQUENCE_OFFSET = 16;
    private static final int VI_ID_OFFSET = 20;
    private static final int RELIABILITY_OFFSET = 24;
    private static final int MAX_TRANSFER_OFFSET = 28;
    private static final int FLAGS_OFFSET = 32;
    private static final int ADDRESS_OFFSET = 36;

    private MutableDirectBuffer buffer;
    private int offset;

    /**
     * Creates a flyweight wrapping nothing; wrap a buffer before use.
     */
    public ConnectMessageFlyweight()
    {
    }

    /**
     * Bytes of a message carrying {@code address}.
     *
     * @param address the requesting NIC's address.
     * @return the message length.
     */
    public static int length(final String address)
    {
        return ADDRESS_OFFSET + BitUtil.SIZE_OF_INT + address.length();
    }

    /**
     * Whether {@code length} bytes at {@code offset} hold one whole, plausible message: its address exactly fills
     * the rest, its VI id is one a NIC can have, its reliability level and maximum transfer size are valid. Read
     * before anything else of a message that another process or host wrote.
     *
     * @param buffer the buffer.
     * @param offset where the message starts.
     * @param length the bytes it occupies.
     * @return true if well formed.
     */
    public static boolean isWellFormed(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < ADDRESS_OFFSET + BitUtil.SIZE_OF_INT ||
            buffer.getInt(offset + ADDRESS_OFFSET) != length - ADDRESS_OFFSET - BitUtil.SIZE_OF_INT)
        {
            return false;
        }
        final int reliability = buffer.getInt(offset + RELIABILITY_OFFSET);
        final int viId = buffer.getInt(offset + VI_ID_OFFSET);
        return viId >= 0 && viId <= 0xFFFF && buffer.getInt(offset + MAX_TRANSFER_OFFSET) >= 1 &&
            (ReliabilityLevel.UNRELIABLE.vipValue() == reliability ||
            ReliabilityLevel.RELIABLE_DELIVERY.vipValue() == reliability ||
            ReliabilityLevel.RELIABLE_RECEPTION.vipValue() == reliability);
    }

    /**
     * Wraps a message.
     *
     * @param buffer the buffer holding it.
     * @param offset its offset.
     * @return this.
     */
    public ConnectMessageFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * The requesting NIC's id.
     *
     * @return the id.
     */
    public long nicId()
    {
        return buffer.getLong(offset + NIC_ID_OFFSET);
    }

    /**
     * Sets the requesting NIC's id.
     *
     * @param nicId the id.
     * @return this.
     */
    public ConnectMessageFlyweight nicId(final long nicId)
    {
        buffer.putLong(offset + NIC_ID_OFFSET, nicId);
        return this;
    }

    /**
     * The discriminator.
     *
     * @return the discriminator.
     */
    public long discriminator()
    {
        return buffer.getLong(offset + DISCRIMINATOR_OFFSET);
    }

    /**
     * Sets the discriminator.
     *
     * @param discriminator the discriminator.
     * @return this.
     */
    public ConnectMessageFlyweight discriminator(final long discriminator)
    {
        buffer.putLong(offset + DISCRIMINATOR_OFFSET, discriminator);
        return this;
    }

    /**
     * The request's sequence number, as in the requester's connect word.
     *
     * @return the sequence.
     */
    public int sequence()
    {
        return buffer.getInt(offset + SEQUENCE_OFFSET);
    }

    /**
     * Sets the sequence number.
     *
     * @param sequence the sequence.
     * @return this.
     */
    public ConnectMessageFlyweight sequence(final int sequence)
    {
        buffer.putInt(offset + SEQUENCE_OFFSET, sequence);
        return this;
    }

    /**
     * The requesting VI.
     *
     * @return its id.
     */
    public int viId()
    {
        return buffer.getInt(offset + VI_ID_OFFSET);
    }

    /**
     * Sets the requesting VI.
     *
     * @param viId its id.
     * @return this.
     */
    public ConnectMessageFlyweight viId(final int viId)
    {
        buffer.putInt(offset + VI_ID_OFFSET, viId);
        return this;
    }

    /**
     * The requesting VI's reliability level.
     *
     * @return its VIPL value.
     */
    public int reliability()
    {
        return buffer.getInt(offset + RELIABILITY_OFFSET);
    }

    /**
     * Sets the reliability level.
     *
     * @param reliability its VIPL value.
     * @return this.
     */
    public ConnectMessageFlyweight reliability(final int reliability)
    {
        buffer.putInt(offset + RELIABILITY_OFFSET, reliability);
        return this;
    }

    /**
     * The requesting VI's maximum transfer size.
     *
     * @return bytes.
     */
    public int maxTransfer()
    {
        return buffer.getInt(offset + MAX_TRANSFER_OFFSET);
    }

    /**
     * Sets the maximum transfer size.
     *
     * @param maxTransfer bytes.
     * @return this.
     */
    public ConnectMessageFlyweight maxTransfer(final int maxTransfer)
    {
        buffer.putInt(offset + MAX_TRANSFER_OFFSET, maxTransfer);
        return this;
    }

    /**
     * The requesting VI's RDMA enable bits.
     *
     * @return flags of {@link RegistrationLayout}.
     */
    public int flags()
    {
        return buffer.getInt(offset + FLAGS_OFFSET);
    }

    /**
     * Sets the RDMA enable bits.
     *
     * @param flags flags of {@link RegistrationLayout}.
     * @return this.
     */
    public ConnectMessageFlyweight flags(final int flags)
    {
        buffer.putInt(offset + FLAGS_OFFSET, flags);
        return this;
    }

    /**
     * The requesting NIC's address.
     *
     * @return the address.
     */
    public String address()
    {
        return buffer.getStringAscii(offset + ADDRESS_OFFSET);
    }

    /**
     * Sets the requesting NIC's address; write it last, it ends the message.
     *
     * @param address the address.
     * @return this.
     */
    public ConnectMessageFlyweight address(final String address)
    {
        buffer.putStringAscii(offset + ADDRESS_OFFSET, address);
        return this;
    }
}
