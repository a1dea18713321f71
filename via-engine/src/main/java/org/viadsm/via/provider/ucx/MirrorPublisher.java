package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.engine.RegistrationLayout;
import org.viadsm.via.engine.RegistrationTable;

/**
 * The target side of the {@link RegistrationMirror}s: writes this NIC's registrations into the mirror of every
 * connected peer, with puts and a flush per peer, before the registration or deregistration returns. An entry is
 * written in the order the table is: the key slot and the body first, flushed, then the generation word, flushed;
 * a deregistration zeroes the generation word. Entries beyond the size of a peer's mirror are not written (the
 * peer refuses operations on them). A peer whose mirror cannot be written (it is gone) is dropped, and
 * its connection breaks.
 * <p>
 * <b>Note:</b> thread-safe: registrations (under the NIC's lock) and connections being established serialize on
 * this object; no UCX callback takes this lock.
 */
final class MirrorPublisher
{
    /** A peer's mirror of this NIC's table. */
    static final class Subscriber
    {
        final UcxLink link;
        final long endpoint;
        final long mirrorAddress;
        final long remoteKey;
        final int entries;

        Subscriber(final UcxLink link, final long endpoint, final long mirrorAddress, final long remoteKey,
            final int entries)
        {
            this.link = link;
            this.endpoint = endpoint;
            this.mirrorAddress = mirrorAddress;
            this.remoteKey = remoteKey;
            this.entries = entries;
        }
    }

    private final UcxTransport nic;
    private final RegistrationTable table;
    private final int capacity;
    private final List<Subscriber> subscribers = new ArrayList<>();
    private final MemorySegment staging;
    private final UnsafeBuffer stagingBuffer;
    private final MemorySegment param;

    MirrorPublisher(final UcxTransport nic, final Arena arena)
    {
        this.nic = nic;
        this.table = nic.area().table();
        this.capacity = table.capacity();
        this.staging = arena.allocate(RegistrationLayout.ENTRY_LENGTH + RegistrationMirror.KEY_SLOT_LENGTH, 64);
        this.stagingBuffer = new UnsafeBuffer(staging.address(), (int)staging.byteSize());
        this.param = SendSlots.bytesParam(arena);
    }

    /**
     * Adds a peer's mirror and fills it with every live registration.
     *
     * @return false if the mirror could not be written.
     */
    synchronized boolean subscribe(final Subscriber subscriber)
    {
        for (int index = 0; index < Math.min(capacity, subscriber.entries); index++)
        {
            if (0 != table.generation(index) && !write(subscriber, index))
            {
                return false;
            }
        }
        subscribers.add(subscriber);
        return true;
    }

    synchronized void unsubscribe(final UcxLink link)
    {
        subscribers.removeIf(subscriber -> subscriber.link == link);
    }

    /**
     * Writes entry {@code index}, just published or retired in this NIC's table, to every mirror.
     */
    synchronized void publish(final int index)
    {
        for (int i = subscribers.size() - 1; i >= 0; i--)
        {
            final Subscriber subscriber = subscribers.get(i);
            if (index < subscriber.entries && !write(subscriber, index))
            {
                subscribers.remove(i);
                subscriber.link.onMirrorLost();
            }
        }
    }

    private boolean write(final Subscriber subscriber, final int index)
    {
        final int generation = table.generation(index);
        final long entryAddress = subscriber.mirrorAddress + (long)index * RegistrationLayout.ENTRY_LENGTH;
        final int entry = 0;
        final int keySlot = RegistrationLayout.ENTRY_LENGTH;
        if (0 == generation)
        {
            stagingBuffer.putInt(entry + RegistrationLayout.GENERATION_OFFSET, 0);
            return put(subscriber, entry, entryAddress, 4) && flush(subscriber);
        }
        final long allocationId = table.allocationId(index);
        final byte[] key = nic.memory().packedKey(allocationId);
        if (null == key || key.length > RegistrationMirror.MAX_KEY_LENGTH)
        {
            return false;
        }
        stagingBuffer.putInt(entry + RegistrationLayout.GENERATION_OFFSET, generation);
        stagingBuffer.putInt(entry + RegistrationLayout.PTAG_OFFSET, table.ptag(index));
        stagingBuffer.putInt(entry + RegistrationLayout.FLAGS_OFFSET, table.flags(index));
        stagingBuffer.putInt(entry + RegistrationLayout.LENGTH_OFFSET, table.length(index));
        stagingBuffer.putLong(entry + RegistrationLayout.ALLOCATION_ID_OFFSET, 0);
        stagingBuffer.putLong(entry + RegistrationLayout.LOCATION_OFFSET,
            nic.memory().address(allocationId) + table.location(index));
        stagingBuffer.putInt(keySlot, key.length);
        stagingBuffer.putInt(keySlot + 4, 0);
        stagingBuffer.putBytes(keySlot + 8, key);
        final long keyAddress = subscriber.mirrorAddress + (long)subscriber.entries * RegistrationLayout.ENTRY_LENGTH +
            (long)index * RegistrationMirror.KEY_SLOT_LENGTH;
        return put(subscriber, keySlot, keyAddress, 8 + key.length) &&
            put(subscriber, entry + 4, entryAddress + 4, RegistrationLayout.ENTRY_LENGTH - 4) &&
            flush(subscriber) &&
            put(subscriber, entry, entryAddress, 4) &&
            flush(subscriber);
    }

    private boolean flush(final Subscriber subscriber)
    {
        return await(Ucp.flush(subscriber.endpoint, param.address()));
    }

    private boolean put(final Subscriber subscriber, final int offset, final long remoteAddress, final int length)
    {
        return await(Ucp.put(subscriber.endpoint, staging.address() + offset, length, remoteAddress,
            subscriber.remoteKey, param.address()));
    }

    /**
     * Waits, making progress, for a UCX request of the control path (a mirror update) and frees it.
     *
     * @param statusPointer what the UCX call returned.
     * @return true if it completed successfully.
     */
    private boolean await(final long statusPointer)
    {
        if (Ucp.isError(statusPointer))
        {
            return false;
        }
        if (!Ucp.isRequest(statusPointer))
        {
            return true;
        }
        final long deadlineNs = System.nanoTime() + UcxConfiguration.CONTROL_TIMEOUT_NS;
        int status;
        while (Ucp.IN_PROGRESS == (status = Ucp.checkStatus(statusPointer)) && System.nanoTime() < deadlineNs)
        {
            // another NIC of this process may be the target, and nothing else progresses it while this thread waits
            if (0 == nic.progressWorker() + UcxNics.progressOtherWorkers(nic))
            {
                Thread.onSpinWait();
            }
        }
        Ucp.free(statusPointer);
        return Ucp.OK == status;
    }
}
