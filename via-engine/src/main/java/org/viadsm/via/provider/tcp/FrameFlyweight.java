package org.viadsm.via.provider.tcp;

import java.nio.ByteOrder;

import org.agrona.MutableDirectBuffer;

import static org.viadsm.via.provider.tcp.FrameLayout.ADDRESS_OFFSET;
import static org.viadsm.via.provider.tcp.FrameLayout.DATA_LENGTH_OFFSET;
import static org.viadsm.via.provider.tcp.FrameLayout.DESTINATION_VI_OFFSET;
import static org.viadsm.via.provider.tcp.FrameLayout.FLAGS_OFFSET;
import static org.viadsm.via.provider.tcp.FrameLayout.HANDLE_OFFSET;
import static org.viadsm.via.provider.tcp.FrameLayout.HEADER_LENGTH;
import static org.viadsm.via.provider.tcp.FrameLayout.IMMEDIATE_OFFSET;
import static org.viadsm.via.provider.tcp.FrameLayout.LENGTH_OFFSET;
import static org.viadsm.via.provider.tcp.FrameLayout.OPERAND_OFFSET;
import static org.viadsm.via.provider.tcp.FrameLayout.SEQUENCE_OFFSET;
import static org.viadsm.via.provider.tcp.FrameLayout.SOURCE_VI_OFFSET;
import static org.viadsm.via.provider.tcp.FrameLayout.SWAP_OFFSET;
import static org.viadsm.via.provider.tcp.FrameLayout.TYPE_OFFSET;
import static org.viadsm.via.provider.tcp.FrameLayout.VERSION;
import static org.viadsm.via.provider.tcp.FrameLayout.VERSION_OFFSET;

/**
 * Flyweight over a frame header of {@link FrameLayout}.
 * <p>
 * <b>Note:</b> not thread-safe: each channel keeps one for reading and one for writing.
 */
final class FrameFlyweight
{
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private MutableDirectBuffer buffer;
    private int offset;

    FrameFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * Starts a frame: clears the header and writes its length, version, type and VI ids.
     */
    FrameFlyweight header(final int frameLength, final int type, final int sourceVi, final int destinationVi)
    {
        buffer.setMemory(offset, HEADER_LENGTH, (byte)0);
        buffer.putInt(offset + LENGTH_OFFSET, frameLength, ORDER);
        buffer.putByte(offset + VERSION_OFFSET, (byte)VERSION);
        buffer.putByte(offset + TYPE_OFFSET, (byte)type);
        buffer.putShort(offset + SOURCE_VI_OFFSET, (short)sourceVi, ORDER);
        buffer.putShort(offset + DESTINATION_VI_OFFSET, (short)destinationVi, ORDER);
        return this;
    }

    int frameLength()
    {
        return buffer.getInt(offset + LENGTH_OFFSET, ORDER);
    }

    int version()
    {
        return buffer.getByte(offset + VERSION_OFFSET) & 0xFF;
    }

    int type()
    {
        return buffer.getByte(offset + TYPE_OFFSET) & 0xFF;
    }

    int flags()
    {
        return buffer.getByte(offset + FLAGS_OFFSET) & 0xFF;
    }

    FrameFlyweight flags(final int flags)
    {
        buffer.putByte(offset + FLAGS_OFFSET, (byte)flags);
        return this;
    }

    int sourceVi()
    {
        return buffer.getShort(offset + SOURCE_VI_OFFSET, ORDER) & 0xFFFF;
    }

    int destinationVi()
    {
        return buffer.getShort(offset + DESTINATION_VI_OFFSET, ORDER) & 0xFFFF;
    }

    int sequence()
    {
        return buffer.getInt(offset + SEQUENCE_OFFSET, ORDER);
    }

    FrameFlyweight sequence(final int sequence)
    {
        buffer.putInt(offset + SEQUENCE_OFFSET, sequence, ORDER);
        return this;
    }

    int dataLength()
    {
        return buffer.getInt(offset + DATA_LENGTH_OFFSET, ORDER);
    }

    FrameFlyweight dataLength(final int length)
    {
        buffer.putInt(offset + DATA_LENGTH_OFFSET, length, ORDER);
        return this;
    }

    int immediate()
    {
        return buffer.getInt(offset + IMMEDIATE_OFFSET, ORDER);
    }

    FrameFlyweight immediate(final int immediate)
    {
        buffer.putInt(offset + IMMEDIATE_OFFSET, immediate, ORDER);
        return this;
    }

    int handle()
    {
        return buffer.getInt(offset + HANDLE_OFFSET, ORDER);
    }

    FrameFlyweight handle(final int handle)
    {
        buffer.putInt(offset + HANDLE_OFFSET, handle, ORDER);
        return this;
    }

    long address()
    {
        return buffer.getLong(offset + ADDRESS_OFFSET, ORDER);
    }

    FrameFlyweight address(final long address)
    {
        buffer.putLong(offset + ADDRESS_OFFSET, address, ORDER);
        return this;
    }

    long operand()
    {
        return buffer.getLong(offset + OPERAND_OFFSET, ORDER);
    }

    FrameFlyweight operand(final long operand)
    {
        buffer.putLong(offset + OPERAND_OFFSET, operand, ORDER);
        return this;
    }

    long swap()
    {
        return buffer.getLong(offset + SWAP_OFFSET, ORDER);
    }

    FrameFlyweight swap(final long swap)
    {
        buffer.putLong(offset + SWAP_OFFSET, swap, ORDER);
        return this;
    }

    @Override
    public String toString()
    {
        return "Frame{length=" + frameLength() + ", type=" + type() + ", vi=" + sourceVi() + "->" +
            destinationVi() + ", sequence=" + sequence() + ", dataLength=" + dataLength() + '}';
    }
}
