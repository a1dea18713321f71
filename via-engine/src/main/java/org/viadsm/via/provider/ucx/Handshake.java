package org.viadsm.via.provider.ucx;

import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.engine.ProviderSupport;
import org.viadsm.via.memory.MemoryHandle;

/**
 * One connection-setup message (active message {@link #AM_ID} over a control endpoint), decoded and checked: a
 * request, an answer or a confirmation, describing the VI that sends it. The header is fixed; the data holds the
 * sender's worker address, the remote key of its registration mirror (see {@link RegistrationMirror}) and its NIC
 * address. The options say whether the sender sends heartbeats on the link ({@link #OPTION_HEARTBEATS}: its
 * progress thread runs), so that a side that sends them too watches the link from its establishment on.
 * <pre>
 *   0 type | 4 VI | 8 peer VI | 12 sequence | 16 NIC id (long) | 24 discriminator (long) | 32 token (long)
 *  40 mirror address (long) | 48 reliability | 52 max transfer | 56 RDMA enables | 60 ptag
 *  64 worker address length | 68 mirror key length | 72 NIC address length | 76 mirror entries | 80 options
 *  84 reserved | 88
 * </pre>
 */
final class Handshake
{
    static final int AM_ID = 2;
    static final int HEADER_LENGTH = 88;
    /** Option bit: the sender sends heartbeats on the link ({@link LinkLiveness}). */
    static final int OPTION_HEARTBEATS = 1;
    /** Longest worker address, key or NIC address accepted. */
    static final int MAX_FIELD_LENGTH = 4096;

    static final int CLIENT_REQUEST = 1;
    static final int PEER_REQUEST = 2;
    static final int ACCEPT = 3;
    static final int REJECT = 4;
    static final int NO_MATCH = 5;
    /** Peer to peer: the other request of the pair wins; this one is dropped. */
    static final int DEFER = 6;
    /** The requester has established its side: the acceptor may now establish its own. */
    static final int CONFIRM = 7;
    /** The requester gave up its request (timed out, disconnected): the request goes. */
    static final int WITHDRAW = 8;
    /** The listener holds as many unanswered requests as it may: this one is turned away. */
    static final int BUSY = 9;

    final int type;
    final int viId;
    final int peerViId;
    final int sequence;
    final long nicId;
    final long discriminator;
    final long token;
    final long mirrorAddress;
    final int reliability;
    final int maxTransfer;
    final int flags;
    final int ptag;
    final int mirrorEntries;
    final int options;
    final byte[] workerAddress;
    final byte[] mirrorKey;
    final String address;
    /**
     * The endpoint of this NIC's listener the message came on, if its sender had UCX name it (it does for answers
     * and withdrawals, whose endpoints carry nothing else), or 0; set before the message is queued.
     */
    long arrivedOn;

    Handshake(
        final int type,
        final int viId,
        final int peerViId,
        final int sequence,
        final long nicId,
        final long discriminator,
        final long token,
        final long mirrorAddress,
        final int reliability,
        final int maxTransfer,
        final int flags,
        final int ptag,
        final int mirrorEntries,
        final int options,
        final byte[] workerAddress,
        final byte[] mirrorKey,
        final String address)
    {
        this.type = type;
        this.viId = viId;
        this.peerViId = peerViId;
        this.sequence = sequence;
        this.nicId = nicId;
        this.discriminator = discriminator;
        this.token = token;
        this.mirrorAddress = mirrorAddress;
        this.reliability = reliability;
        this.maxTransfer = maxTransfer;
        this.flags = flags;
        this.ptag = ptag;
        this.mirrorEntries = mirrorEntries;
        this.options = options;
        this.workerAddress = workerAddress;
        this.mirrorKey = mirrorKey;
        this.address = address;
    }

    /**
     * A message without a VI description (refusals, confirmations).
     */
    static Handshake bare(final int type, final int viId, final int peerViId, final int sequence, final long nicId)
    {
        return new Handshake(type, viId, peerViId, sequence, nicId, 0, 0, 0, 0, 0, 0, 0, 0, 0, new byte[0],
            new byte[0], "");
    }

    boolean sendsHeartbeats()
    {
        return (options & OPTION_HEARTBEATS) != 0;
    }

    boolean isRequest()
    {
        return CLIENT_REQUEST == type || PEER_REQUEST == type;
    }

    ViAttributes attributes()
    {
        return ProviderSupport.viAttributes(reliability, maxTransfer, flags);
    }

    int dataLength()
    {
        return workerAddress.length + mirrorKey.length + address.getBytes(StandardCharsets.UTF_8).length;
    }

    void encodeHeader(final UnsafeBuffer header)
    {
        final byte[] name = address.getBytes(StandardCharsets.UTF_8);
        header.putInt(0, type);
        header.putInt(4, viId);
        header.putInt(8, peerViId);
        header.putInt(12, sequence);
        header.putLong(16, nicId);
        header.putLong(24, discriminator);
        header.putLong(32, token);
        header.putLong(40, mirrorAddress);
        header.putInt(48, reliability);
        header.putInt(52, maxTransfer);
        header.putInt(56, flags);
        header.putInt(60, ptag);
        header.putInt(64, workerAddress.length);
        header.putInt(68, mirrorKey.length);
        header.putInt(72, name.length);
        header.putInt(76, mirrorEntries);
        header.putInt(80, options);
        header.putInt(84, 0);
    }

    void encodeData(final UnsafeBuffer data)
    {
        data.putBytes(0, workerAddress);
        data.putBytes(workerAddress.length, mirrorKey);
        data.putBytes(workerAddress.length + mirrorKey.length, address.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Decodes a received message.
     *
     * @throws IllegalArgumentException naming what is wrong with it.
     */
    static Handshake decode(final UnsafeBuffer header, final int headerLength, final UnsafeBuffer data,
        final long dataLength)
    {
        if (HEADER_LENGTH != headerLength)
        {
            throw new IllegalArgumentException("connection message header of " + headerLength + " bytes, expected " +
                HEADER_LENGTH);
        }
        final int type = header.getInt(0);
        if (type < CLIENT_REQUEST || type > BUSY)
        {
            throw new IllegalArgumentException("connection message of unknown type " + type);
        }
        final int workerLength = header.getInt(64);
        final int keyLength = header.getInt(68);
        final int nameLength = header.getInt(72);
        if (workerLength < 0 || workerLength > MAX_FIELD_LENGTH || keyLength < 0 || keyLength > MAX_FIELD_LENGTH ||
            nameLength < 0 || nameLength > MAX_FIELD_LENGTH ||
            (long)workerLength + keyLength + nameLength != dataLength)
        {
            throw new IllegalArgumentException("connection message declares fields of " + workerLength + ", " +
                keyLength + " and " + nameLength + " bytes and carries " + dataLength);
        }
        final boolean describes = CLIENT_REQUEST == type || PEER_REQUEST == type || ACCEPT == type;
        if (describes && (0 == workerLength || 0 == keyLength || 0 == nameLength))
        {
            throw new IllegalArgumentException("connection message of type " + type + " lacks a worker address, " +
                "mirror key or NIC address");
        }
        final int reliability = header.getInt(48);
        final int mirrorEntries = header.getInt(76);
        if (describes && (1 != reliability && 2 != reliability && 4 != reliability || header.getInt(52) <= 0 ||
            mirrorEntries <= 0 || mirrorEntries > MemoryHandle.MAX_ENTRIES))
        {
            throw new IllegalArgumentException("connection message with reliability " + reliability +
                ", maximum transfer " + header.getInt(52) + " and " + mirrorEntries + " mirror entries");
        }
        final byte[] worker = new byte[workerLength];
        final byte[] key = new byte[keyLength];
        final byte[] name = new byte[nameLength];
        if (dataLength > 0)
        {
            data.getBytes(0, worker);
            data.getBytes(workerLength, key);
            data.getBytes(workerLength + keyLength, name);
        }
        return new Handshake(type, header.getInt(4), header.getInt(8), header.getInt(12), header.getLong(16),
            header.getLong(24), header.getLong(32), header.getLong(40), reliability, header.getInt(52),
            header.getInt(56), header.getInt(60), mirrorEntries, header.getInt(80), worker, key,
            new String(name, StandardCharsets.UTF_8));
    }

    @Override
    public String toString()
    {
        return "Handshake{type=" + type + ", vi=" + viId + ", peerVi=" + peerViId + ", seq=" + sequence +
            ", disc=" + discriminator + ", address=" + address + '}';
    }
}
