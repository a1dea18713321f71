package org.viadsm.via.provider.ucx;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A ucx NIC's links by local VI id, and a copy of the connected ones that progress walks: as many as are connected,
 * not one slot per possible VI. Attaching and removing are serialised; the copy is replaced, never changed, so a
 * walker reads it without a lock.
 */
final class UcxLinkTable
{
    private static final UcxLink[] NONE = new UcxLink[0];

    private final AtomicReferenceArray<UcxLink> links;
    private volatile UcxLink[] active = NONE;

    UcxLinkTable(final int maxVis)
    {
        links = new AtomicReferenceArray<>(maxVis);
    }

    /**
     * The connected links, for progress and liveness to walk; never modified.
     */
    UcxLink[] active()
    {
        return active;
    }

    /**
     * The link of local VI {@code viId}, or null if it has none (or the id is out of range).
     */
    UcxLink link(final int viId)
    {
        return viId >= 0 && viId < links.length() ? links.get(viId) : null;
    }

    void attach(final UcxLink link)
    {
        synchronized (links)
        {
            links.set(link.vi().id(), link);
            updateActive();
        }
    }

    /**
     * Forgets {@code link} if it is still its VI's link.
     *
     * @return whether it was, so the caller releases its resources once.
     */
    boolean remove(final UcxLink link)
    {
        synchronized (links)
        {
            final boolean removed = links.compareAndSet(link.vi().id(), link, null);
            if (removed)
            {
                updateActive();
            }
            return removed;
        }
    }

    /**
     * Empties the table for a closing NIC.
     *
     * @return the links it held, for the caller to close.
     */
    UcxLink[] clear()
    {
        synchronized (links)
        {
            final UcxLink[] held = active;
            for (int i = 0; i < links.length(); i++)
            {
                links.set(i, null);
            }
            active = NONE;
            return held;
        }
    }

    private void updateActive()
    {
        int count = 0;
        for (int i = 0; i < links.length(); i++)
        {
            count += null == links.get(i) ? 0 : 1;
        }
        final UcxLink[] current = new UcxLink[count];
        for (int i = 0, n = 0; i < links.length() && n < count; i++)
        {
            final UcxLink link = links.get(i);
            if (null != link)
            {
                current[n++] = link;
            }
        }
        active = current;
    }
}
