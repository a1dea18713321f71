package org.viadsm.via.provider.tcp;

/**
 * Layout of the frames a tcp NIC exchanges on each connection: every frame starts with the same header, in little
 * endian, followed by the payload its type allows.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |               Frame Length (header included)                  |  0
 *  +---------------+---------------+---------------+-+-------------+
 *  |    Version    |     Type      |   Reserved    |A|I| Reserved  |  4  flags: I immediate, A atomic add
 *  +---------------+---------------+---------------+-+-------------+
 *  |        Source VI Id           |      Destination VI Id        |  8
 *  +-------------------------------+-------------------------------+
 *  |                       Sequence Number                         |  12
 *  +---------------------------------------------------------------+
 *  |        Data Length (bytes carried, or bytes to read)          |  16
 *  +---------------------------------------------------------------+
 *  |           Immediate Data, or Outcome Code of a NAK            |  20
 *  +---------------------------------------------------------------+
 *  |                   Remote Memory Handle                        |  24
 *  +---------------------------------------------------------------+
 *  |                         Reserved                              |  28
 *  +---------------------------------------------------------------+
 *  |                  Remote Address (long)                        |  32
 *  +---------------------------------------------------------------+
 *  |     Operand (long): compare value or addend; atomic result    |  40
 *  +---------------------------------------------------------------+
 *  |                  Swap Value (long)                            |  48
 *  +---------------------------------------------------------------+
 *  |                        Payload ...                            |  56
 * </pre>
 * The sequence number counts the initiator's requests on the connection from 0; a response carries the number of
 * the request it answers, a handshake frame the requester's connect sequence number. A handshake frame's payload is
 * an {@code org.viadsm.via.engine.ConnectMessageFlyweight} describing the VI that sends it; a NAK's payload is the
 * target's explanation in ASCII.
 */
final class FrameLayout
{
    /** Protocol version in every header. */
    static final int VERSION = 1;

    static final int LENGTH_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int TYPE_OFFSET = 5;
    static final int FLAGS_OFFSET = 7;
    static final int SOURCE_VI_OFFSET = 8;
    static final int DESTINATION_VI_OFFSET = 10;
    static final int SEQUENCE_OFFSET = 12;
    static final int DATA_LENGTH_OFFSET = 16;
    static final int IMMEDIATE_OFFSET = 20;
    static final int HANDLE_OFFSET = 24;
    static final int ADDRESS_OFFSET = 32;
    static final int OPERAND_OFFSET = 40;
    static final int SWAP_OFFSET = 48;
    /** Bytes of the header. */
    static final int HEADER_LENGTH = 56;

    /** Flag: immediate data is attached. */
    static final int FLAG_IMMEDIATE = 0x1;
    /** Flag of an atomic: fetch-and-add, else compare-and-swap. */
    static final int FLAG_ATOMIC_ADD = 0x2;

    /** Handshake: a client's connection request. */
    static final int TYPE_CLIENT_REQUEST = 1;
    /** Handshake: one side of a peer-to-peer request. */
    static final int TYPE_PEER_REQUEST = 2;
    /** Handshake: the answering VI accepts; its description follows. */
    static final int TYPE_ACCEPT = 3;
    /** Handshake: the server rejects the request. */
    static final int TYPE_REJECT = 4;
    /** Handshake: the VIs' reliability levels differ. */
    static final int TYPE_NO_MATCH = 5;
    /** Handshake: the receiving NIC matches peer requests the other way round; the requester waits for it. */
    static final int TYPE_DEFER = 6;
    /** Handshake: the requester took the accept; the connection is up. */
    static final int TYPE_CONFIRM = 7;
    /** Handshake: the requester gave up before the accept arrived. */
    static final int TYPE_DECLINE = 8;

    /** Request: a Send, with its data. */
    static final int TYPE_SEND = 16;
    /** Request: an RDMA Write, with its data. */
    static final int TYPE_RDMA_WRITE = 17;
    /** Request: an RDMA Read of Data Length bytes. */
    static final int TYPE_RDMA_READ = 18;
    /** Request: an atomic on an 8-byte word. */
    static final int TYPE_ATOMIC = 19;

    /** Response at the reliable-reception level: the Send or RDMA Write is in the target's memory. */
    static final int TYPE_ACK = 32;
    /** Response: the data an RDMA Read asked for. */
    static final int TYPE_READ_RESPONSE = 33;
    /** Response: the previous value of an atomic's word, in the operand. */
    static final int TYPE_ATOMIC_RESPONSE = 34;
    /** Response: the operation failed at the target (outcome code of {@code TargetAccess}); the connection ends. */
    static final int TYPE_NAK = 35;

    /** The VI disconnects; the connection ends. */
    static final int TYPE_DISCONNECT = 48;
    /**
     * The sender is there: sent on a connection that has carried nothing for a while, so the peer can tell a quiet
     * connection from a dead link.
     */
    static final int TYPE_HEARTBEAT = 49;

    /** Largest payload of a handshake frame or a NAK. */
    static final int MAX_CONTROL_PAYLOAD = 1024;

    private FrameLayout()
    {
    }

    /**
     * Whether a type is one of the handshake's.
     *
     * @param type a frame type.
     * @return true for handshake frames.
     */
    static boolean isHandshake(final int type)
    {
        return type >= TYPE_CLIENT_REQUEST && type <= TYPE_DECLINE;
    }
}
