package org.viadsm.via.provider.ucx;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The header of a data message (active message {@link #AM_ID}) between two connected VIs; the payload, if any,
 * is the message's data. Little-endian, as every field of the provider's messages.
 * <pre>
 *   0 type | 4 target VI | 8 target token (long) | 16 sequence | 20 length | 24 immediate | 28 flags
 *  32 handle | 36 outcome | 40 address (long) | 48
 * </pre>
 * The token is the one the receiving side gave for this connection in its handshake, so a message of an old
 * connection never reaches a VI connected again since.
 */
final class DataHeader
{
    static final int AM_ID = 1;
    static final int LENGTH = 48;

    /** A Send; the payload is its data. */
    static final int TYPE_SEND = 1;
    /** An RDMA Write with immediate data; the payload is its data. */
    static final int TYPE_WRITE_IMMEDIATE = 2;
    /** The target performed the message of {@code sequence} (reliable reception). */
    static final int TYPE_ACK = 3;
    /** The target refused the message of {@code sequence}: {@code outcome} says why; the connection ends. */
    static final int TYPE_NAK = 4;
    /** The sender ends the connection (it disconnected, or an error broke it); {@code outcome} may say why. */
    static final int TYPE_BREAK = 5;
    /** The sender is alive ({@link LinkLiveness}); nothing else. */
    static final int TYPE_HEARTBEAT = 6;

    static final int FLAG_IMMEDIATE = 1;
    static final int FLAG_ACK_REQUESTED = 2;

    private static final int TYPE_OFFSET = 0;
    private static final int VI_OFFSET = 4;
    private static final int TOKEN_OFFSET = 8;
    private static final int SEQUENCE_OFFSET = 16;
    private static final int LENGTH_OFFSET = 20;
    private static final int IMMEDIATE_OFFSET = 24;
    private static final int FLAGS_OFFSET = 28;
    private static final int HANDLE_OFFSET = 32;
    private static final int OUTCOME_OFFSET = 36;
    private static final int ADDRESS_OFFSET = 40;

    private UnsafeBuffer buffer;

    DataHeader wrap(final UnsafeBuffer buffer)
    {
        this.buffer = buffer;
        return this;
    }

    DataHeader set(final int type, final int targetVi, final long token, final int sequence)
    {
        buffer.putInt(TYPE_OFFSET, type);
        buffer.putInt(VI_OFFSET, targetVi);
        buffer.putLong(TOKEN_OFFSET, token);
        buffer.putInt(SEQUENCE_OFFSET, sequence);
        buffer.putInt(LENGTH_OFFSET, 0);
        buffer.putInt(IMMEDIATE_OFFSET, 0);
        buffer.putInt(FLAGS_OFFSET, 0);
        buffer.putInt(HANDLE_OFFSET, 0);
        buffer.putInt(OUTCOME_OFFSET, 0);
        buffer.putLong(ADDRESS_OFFSET, 0);
        return this;
    }

    int type()
    {
        return buffer.getInt(TYPE_OFFSET);
    }

    int targetVi()
    {
        return buffer.getInt(VI_OFFSET);
    }

    long token()
    {
        return buffer.getLong(TOKEN_OFFSET);
    }

    int sequence()
    {
        return buffer.getInt(SEQUENCE_OFFSET);
    }

    int length()
    {
        return buffer.getInt(LENGTH_OFFSET);
    }

    DataHeader length(final int length)
    {
        buffer.putInt(LENGTH_OFFSET, length);
        return this;
    }

    int immediate()
    {
        return buffer.getInt(IMMEDIATE_OFFSET);
    }

    DataHeader immediate(final int immediate)
    {
        buffer.putInt(IMMEDIATE_OFFSET, immediate);
        return this;
    }

    int flags()
    {
        return buffer.getInt(FLAGS_OFFSET);
    }

    DataHeader flags(final int flags)
    {
        buffer.putInt(FLAGS_OFFSET, flags);
        return this;
    }

    int handle()
    {
        return buffer.getInt(HANDLE_OFFSET);
    }

    DataHeader handle(final int handle)
    {
        buffer.putInt(HANDLE_OFFSET, handle);
        return this;
    }

    int outcome()
    {
        return buffer.getInt(OUTCOME_OFFSET);
    }

    DataHeader outcome(final int outcome)
    {
        buffer.putInt(OUTCOME_OFFSET, outcome);
        return this;
    }

    long address()
    {
        return buffer.getLong(ADDRESS_OFFSET);
    }

    DataHeader address(final long address)
    {
        buffer.putLong(ADDRESS_OFFSET, address);
        return this;
    }

    /**
     * What is wrong with a received header and payload length, or null if nothing is: a message that fails this
     * is dropped and ends its connection.
     */
    String check(final int headerLength, final long payloadLength, final int maxTransfer)
    {
        if (LENGTH != headerLength)
        {
            return "data message header of " + headerLength + " bytes, expected " + LENGTH;
        }
        final int type = type();
        if (type < TYPE_SEND || type > TYPE_HEARTBEAT)
        {
            return "data message of unknown type " + type;
        }
        final boolean carriesData = TYPE_SEND == type || TYPE_WRITE_IMMEDIATE == type;
        if (carriesData ? length() != payloadLength || length() < 0 || length() > maxTransfer : 0 != payloadLength)
        {
            return "data message of type " + type + " declares " + length() + " bytes and carries " + payloadLength;
        }
        return null;
    }

    @Override
    public String toString()
    {
        return "DataHeader{type=" + type() + ", vi=" + targetVi() + ", seq=" + sequence() + ", length=" + length() +
            '}';
    }
}
