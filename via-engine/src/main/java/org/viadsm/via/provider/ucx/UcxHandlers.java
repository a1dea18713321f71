package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

/**
 * A ucx NIC's active-message handlers: data messages go to the link their header names (if the token matches),
 * connection-setup messages, decoded, to the connector. UCX calls them in the progress of the NIC's worker,
 * through upcall stubs, with the NIC's slot ({@link UcxNics}) as argument; they never throw.
 * <p>
 * <b>Note:</b> UCX calls the handlers of one worker one at a time (under the worker's lock).
 */
final class UcxHandlers
{
    private static final MethodHandle ON_DATA = Ucp.findStatic(UcxHandlers.class, "onData");
    private static final MethodHandle ON_HANDSHAKE = Ucp.findStatic(UcxHandlers.class, "onHandshake");
    /** Entries of the worker's handler table, all set; even, as UCX rounds a capacity up to an even count. */
    private static final int HANDLER_TABLE_LENGTH = 8;

    private final UcxTransport nic;
    private final UcxConnector connector;
    private final DataHeader header = new DataHeader();
    private final UnsafeBuffer headerBuffer = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer handshakeHeader = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer handshakeData = new UnsafeBuffer(0, 0);

    UcxHandlers(final UcxTransport nic, final UcxConnector connector)
    {
        this.nic = nic;
        this.connector = connector;
    }

    /**
     * Sets both handlers on the NIC's worker, and an empty one on every other id of the worker's handler table; the
     * stubs live as long as the arena.
     * <p>
     * UCX 1.13 (up to 1.16) grows the table to an even capacity when an id beyond it is registered but initializes
     * only the entry of that id (its loop over the new entries writes entry {@code id} each time), and takes the
     * rest, left as the allocator gave them, for handlers: an active message of such an id (a peer's that this NIC
     * never registered) calls whatever address lies there. So the table is first grown at once to
     * {@link #HANDLER_TABLE_LENGTH} entries by registering its last id, then every entry is set: ids beyond it are
     * dropped by UCX's own length check, and every id within it has a handler or none.
     *
     * @throws ViaException if UCX refuses one.
     */
    static void install(final long worker, final int slot, final Arena arena)
    {
        final MemorySegment none = MemorySegment.NULL;
        for (int id = HANDLER_TABLE_LENGTH - 1; id >= 0; id--)
        {
            install(worker, slot, id, DataHeader.AM_ID == id ? Ucp.amCallback(ON_DATA, arena) :
                Handshake.AM_ID == id ? Ucp.amCallback(ON_HANDSHAKE, arena) : none, arena);
        }
    }

    private static void install(final long worker, final int slot, final int id, final MemorySegment callback,
        final Arena arena)
    {
        final MemorySegment param = arena.allocate(Ucp.AM_HANDLER_PARAM_LENGTH, 8);
        param.set(ValueLayout.JAVA_LONG, 0, 0xFL);
        param.set(ValueLayout.JAVA_INT, 8, id);
        param.set(ValueLayout.JAVA_INT, 12, 1);
        param.set(ValueLayout.ADDRESS, 16, callback);
        param.set(ValueLayout.ADDRESS, 24, MemorySegment.ofAddress(slot));
        final int status = Ucp.setAmHandler(worker, param);
        if (Ucp.OK != status)
        {
            throw new ViaException(ViaError.ERROR_RESOURCE, "cannot set the active-message handler " + id +
                ": UCX status " + status);
        }
    }

    /**
     * The handler of data messages.
     */
    static int onData(final long arg, final long header, final long headerLength, final long data,
        final long length, final long param)
    {
        final UcxTransport nic = UcxNics.get((int)arg);
        if (null != nic)
        {
            try
            {
                nic.handlers().dispatch(header, headerLength, data, length);
            }
            catch (final Throwable ex)
            {
                // a fault in the engine's code must not unwind through UCX; the message is dropped
            }
        }
        return Ucp.OK;
    }

    /**
     * The handler of connection-setup messages.
     */
    static int onHandshake(final long arg, final long header, final long headerLength, final long data,
        final long length, final long param)
    {
        final UcxTransport nic = UcxNics.get((int)arg);
        if (null != nic && headerLength >= 0 && length >= 0 && length <= Integer.MAX_VALUE)
        {
            try
            {
                nic.handlers().handshake(header, headerLength, data, length, param);
            }
            catch (final Throwable ex)
            {
                // a malformed message is dropped; its sender's request times out
            }
        }
        return Ucp.OK;
    }

    private void dispatch(final long headerAddress, final long headerLength, final long dataAddress,
        final long dataLength)
    {
        if (DataHeader.LENGTH != headerLength)
        {
            return;
        }
        headerBuffer.wrap(headerAddress, DataHeader.LENGTH);
        header.wrap(headerBuffer);
        final UcxLink link = nic.link(header.targetVi());
        if (null != link && link.token == header.token())
        {
            link.onData(header, dataAddress, dataLength);
        }
    }

    private void handshake(final long headerAddress, final long headerLength, final long dataAddress,
        final long dataLength, final long param)
    {
        handshakeHeader.wrap(headerAddress, (int)Math.min(headerLength, Handshake.HEADER_LENGTH));
        handshakeData.wrap(0 == dataLength ? headerAddress : dataAddress, (int)dataLength);
        final Handshake message = Handshake.decode(handshakeHeader, (int)headerLength, handshakeData, dataLength);
        if (0 != param)
        {
            handshakeHeader.wrap(param, (int)Ucp.AM_RECV_REPLY_EP_OFFSET + Long.BYTES);
            if (0 != (handshakeHeader.getLong(0) & Ucp.AM_RECV_ATTR_FIELD_REPLY_EP))
            {
                message.arrivedOn = handshakeHeader.getLong((int)Ucp.AM_RECV_REPLY_EP_OFFSET);
            }
        }
        connector.onHandshake(message);
    }
}
