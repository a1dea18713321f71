package org.viadsm.via.engine;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.internal.AgronaAccess;
import org.viadsm.via.internal.CheckedSpan;

import static org.viadsm.via.engine.NicLayout.MAGIC;
import static org.viadsm.via.engine.NicLayout.MAGIC_OFFSET;
import static org.viadsm.via.engine.NicLayout.NIC_ID_OFFSET;
import static org.viadsm.via.engine.NicLayout.OWNER_PID_OFFSET;
import static org.viadsm.via.engine.NicLayout.OWNER_START_MS_OFFSET;
import static org.viadsm.via.engine.NicLayout.STATE_OFFSET;
import static org.viadsm.via.engine.NicLayout.STATE_OPEN;
import static org.viadsm.via.engine.NicLayout.VERSION_OFFSET;

/**
 * A NIC's shared area: the memory that holds everything an initiator needs to act on the NIC as a target. Wraps
 * the area's buffer and hands out flyweights over its sections.
 * <p>
 * <b>Note:</b> the header accessors and {@link #table()} may be used by any thread. {@link #errors()} and
 * {@link #requests()} return one shared instance each whose {@code offer} is thread-safe and whose {@code drain}
 * must be called by one thread at a time.
 */
public final class NicArea
{
    private final UnsafeBuffer buffer;
    // the header, whose state every operation on a peer reads
    private final CheckedSpan header;
    private final NicGeometry geometry;
    private final RegistrationTable table;
    private final ErrorRing errors;
    private final RequestRing requests;

    private NicArea(final AtomicBuffer buffer, final NicGeometry geometry)
    {
        this.buffer = AgronaAccess.unsafeBuffer(buffer);
        this.header = new CheckedSpan(buffer, 0, NicLayout.HEADER_LENGTH);
        this.geometry = geometry;
        this.table = new RegistrationTable(this.buffer, geometry.registrationOffset(), geometry.maxRegions());
        this.errors = new ErrorRing(this.buffer, geometry);
        this.requests = new RequestRing(this.buffer, geometry);
    }

    /**
     * Owner side: lays out a new area over zeroed memory and marks it open.
     *
     * @param buffer        zeroed memory of at least {@link NicGeometry#areaLength()} bytes.
     * @param geometry      the sizes.
     * @param nicId         the NIC's identity.
     * @param ownerPid      the owning process.
     * @param ownerStartMs  the owning process's start time, epoch ms, or 0.
     * @return the area.
     * @throws IllegalArgumentException if the buffer is too short.
     */
    public static NicArea create(
        final AtomicBuffer buffer, final NicGeometry geometry, final long nicId, final long ownerPid,
        final long ownerStartMs)
    {
        if (buffer.capacity() < geometry.areaLength())
        {
            throw new IllegalArgumentException(
                "NIC area too short: capacity=" + buffer.capacity() + " required=" + geometry.areaLength());
        }
        buffer.putLong(MAGIC_OFFSET, MAGIC);
        buffer.putInt(VERSION_OFFSET, NicLayout.LAYOUT_VERSION);
        buffer.putLong(OWNER_PID_OFFSET, ownerPid);
        buffer.putLong(OWNER_START_MS_OFFSET, ownerStartMs);
        buffer.putLong(NIC_ID_OFFSET, nicId);
        geometry.write(buffer);
        final NicArea area = new NicArea(buffer, geometry);
        buffer.putIntRelease(STATE_OFFSET, STATE_OPEN);
        return area;
    }

    /**
     * Peer side: attaches to an area another NIC laid out.
     *
     * @param buffer  the area.
     * @param address the NIC's address, for messages.
     * @return the area.
     * @throws ViaException with {@link ViaError#NOT_REACHABLE} if the area is not an open NIC of this layout.
     */
    public static NicArea attach(final AtomicBuffer buffer, final String address)
    {
        if (buffer.capacity() < NicLayout.HEADER_LENGTH)
        {
            throw new ViaException(ViaError.NOT_REACHABLE, "no NIC at " + address + ": area too short");
        }
        final int state = buffer.getIntAcquire(STATE_OFFSET);
        if (STATE_OPEN != state || MAGIC != buffer.getLong(MAGIC_OFFSET))
        {
            throw new ViaException(ViaError.NOT_REACHABLE, "no open NIC at " + address + ": state=" + state);
        }
        final int version = buffer.getInt(VERSION_OFFSET);
        if (NicLayout.LAYOUT_VERSION != version)
        {
            throw new ViaException(ViaError.NOT_REACHABLE,
                "NIC at " + address + " has layout version " + version + ", expected " + NicLayout.LAYOUT_VERSION);
        }
        final NicGeometry geometry = NicGeometry.read(buffer);
        if (buffer.capacity() < geometry.areaLength())
        {
            throw new ViaException(ViaError.NOT_REACHABLE, "NIC area of " + address + " is truncated");
        }
        return new NicArea(buffer, geometry);
    }

    /**
     * The area's memory.
     *
     * @return the buffer.
     */
    public AtomicBuffer buffer()
    {
        return buffer;
    }

    /**
     * The area's sizes.
     *
     * @return the geometry.
     */
    public NicGeometry geometry()
    {
        return geometry;
    }

    /**
     * The NIC state, read with acquire semantics.
     *
     * @return a {@code STATE_*} value of {@link NicLayout}.
     */
    public int state()
    {
        return header.getIntAcquire(STATE_OFFSET);
    }

    /**
     * Whether the NIC is open.
     *
     * @return true while open.
     */
    public boolean isOpen()
    {
        return STATE_OPEN == state();
    }

    /**
     * Owner side: marks the NIC closed with volatile semantics.
     */
    public void markClosed()
    {
        buffer.putIntVolatile(STATE_OFFSET, NicLayout.STATE_CLOSED);
    }

    /**
     * The NIC's identity.
     *
     * @return the id.
     */
    public long nicId()
    {
        return buffer.getLong(NIC_ID_OFFSET);
    }

    /**
     * The owning process.
     *
     * @return its pid.
     */
    public long ownerPid()
    {
        return buffer.getLong(OWNER_PID_OFFSET);
    }

    /**
     * The owning process's start time.
     *
     * @return epoch ms, or 0 if unknown.
     */
    public long ownerStartMs()
    {
        return buffer.getLong(OWNER_START_MS_OFFSET);
    }

    /**
     * The registration table.
     *
     * @return the shared table flyweight.
     */
    public RegistrationTable table()
    {
        return table;
    }

    /**
     * The asynchronous-error ring.
     *
     * @return the shared ring.
     */
    ErrorRing errors()
    {
        return errors;
    }

    /**
     * The connection-request ring.
     *
     * @return the shared ring.
     */
    RequestRing requests()
    {
        return requests;
    }

    /**
     * A new flyweight over VI record {@code viId}; keep it, it never moves.
     *
     * @param viId a VI id below {@link NicGeometry#maxVis()}.
     * @return the flyweight.
     */
    ViRecord viRecord(final int viId)
    {
        return new ViRecord(buffer, geometry, viId);
    }

    /**
     * A new flyweight over the receive ring of VI record {@code viId}.
     *
     * @param viId a VI id.
     * @return the flyweight.
     */
    RecvRing recvRing(final int viId)
    {
        return new RecvRing(buffer, geometry, viId);
    }

    /**
     * A new flyweight over completion queue {@code cqId}.
     *
     * @param cqId a completion-queue id below {@link NicGeometry#maxCqs()}.
     * @return the flyweight.
     */
    CqRing cq(final int cqId)
    {
        return new CqRing(buffer, geometry, cqId);
    }
}
