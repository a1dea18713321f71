package org.viadsm.consistency.page;

import java.lang.invoke.VarHandle;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.port.ProtocolPort;

/**
 * The copysets of a node's pages: which other nodes may cache each page, kept at the page's home (see
 * {@link ArrayRegionLayout}) and changed only one-sided, by the caching node, with remote atomics. No thread of
 * the home takes part; the home reads its copysets in its own memory at its releases.
 * <p>
 * A fetcher adds itself to a page's copyset, then bumps the array's registration count at the home, then the home's
 * own count of registrations in its control region (every array's), and only then reads the page (the four posted
 * together, one wait); while its copy is valid its bit stays set. A home's release looks first at that one word
 * ({@link #isRegisteredSince()}), and at the arrays' counts only when it moved. It takes itself
 * out when a notice names a page whose copy an earlier notice invalidated and that it has not read since (see
 * {@link CopysetMembership}), so that a home can write a page nobody reads any more without faults again.
 * Each fetcher's word at a home holds exactly the bits it registered there, so adding and removing bits are plain
 * fetch-and-adds, with no read first; this node's own slot of its own region (never read by a home) records what it
 * registered everywhere.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class Copysets
{
    private final ProtocolPort port;
    private final Counters counters;
    private final int nodeId;
    private final int nodeCount;
    private final int controlRegion;
    private final int registrationsOffset;
    private final AtomicBuffer control;
    private long registrationsSeen;
    private boolean leaving;

    /**
     * @param port                the network.
     * @param counters            the node's counters.
     * @param controlRegion       the control region's id, the same on every node.
     * @param registrationsOffset the offset of the count of registrations at a home in its control region.
     */
    Copysets(final ProtocolPort port, final Counters counters, final int controlRegion, final int registrationsOffset)
    {
        this.port = port;
        this.counters = counters;
        this.nodeId = port.nodeId();
        this.nodeCount = port.nodeCount();
        this.controlRegion = controlRegion;
        this.registrationsOffset = registrationsOffset;
        this.control = port.region(controlRegion);
    }

    /**
     * Fetcher: joins the copysets of pages {@code [first, first + count)}, all homed at {@code home}, before they
     * are read. Posts its remote atomics without waiting: operations to one node take effect in the order they are
     * issued, so the copyset bits come before the count and the count before the read that follows, whose wait
     * covers them all (one round trip for a fetch that joins).
     */
    void register(final PageTable table, final int home, final int first, final int count)
    {
        final ArrayRegionLayout layout = table.layout();
        final AtomicBuffer memory = table.memory();
        final CopysetMembership membership = table.membership();
        final int end = first + count;
        boolean joined = false;
        for (int page = first; page < end; page = (page | (Long.SIZE - 1)) + 1)
        {
            final int word = page >>> 6;
            final int stop = Math.min(end, (word + 1) << 6);
            final long bits = (-1L >>> (Long.SIZE - (stop - page))) << (page & (Long.SIZE - 1));
            final int offset = layout.copysetOffset(nodeId, word);
            final long registered = memory.getLong(offset);
            final long fresh = bits & ~registered;
            if (0 != fresh)
            {
                if (membership.isLeaving(word))
                {
                    // the leave's subtraction goes before the join's addition, as the words at the home expect
                    leave(table, word, membership.takeLeaving(word));
                }
                memory.putLong(offset, registered | fresh);
                port.postFetchAndAdd(home, table.region(), offset, fresh);
                if (membership.joined(word, fresh))
                {
                    counters.increment(Counter.COPYSET_REJOINS);
                }
                joined = true;
            }
        }
        if (joined)
        {
            // the array's count before the home's: a home that sees the second sees the first
            port.postFetchAndAdd(home, table.region(), layout.registrationsOffset(), 1L);
            port.postFetchAndAdd(home, controlRegion, registrationsOffset, 1L);
            counters.increment(Counter.COPYSET_JOINS);
        }
    }

    /**
     * Fetcher, at an acquire: a notice named a page whose copy is invalid and was not read since it was
     * invalidated; the page is left at the end of the acquire ({@link #leaveDropped}) if this node is in its
     * copyset.
     */
    void dropped(final PageTable table, final int page)
    {
        final int word = page >>> 6;
        final long bit = 1L << page;
        final int offset = table.layout().copysetOffset(nodeId, word);
        final AtomicBuffer memory = table.memory();
        final long registered = memory.getLong(offset);
        if (0 != (registered & bit))
        {
            memory.putLong(offset, registered & ~bit);
            table.membership().dropped(word, bit);
            leaving = true;
        }
    }

    /**
     * Fetcher, at the end of an acquire: leaves the copysets of the pages whose copies it dropped, one posted
     * remote atomic per copyset word and home.
     *
     * @return whether it posted any: the caller waits for them before the acquire ends.
     */
    boolean leaveDropped(final SharedSpace space)
    {
        if (!leaving)
        {
            return false;
        }
        leaving = false;
        for (int t = 0; t < space.tableCount(); t++)
        {
            final PageTable table = space.table(t);
            final CopysetMembership membership = table.membership();
            for (int word = membership.nextLeaving(0); word >= 0; word = membership.nextLeaving(word + 1))
            {
                leave(table, word, membership.takeLeaving(word));
            }
        }
        return true;
    }

    /**
     * Home: whether a node registered in any copyset here since the last {@link #takeRegistrations()}, without
     * taking note: one word of this node's control region, whichever the array. The caller has issued a full fence
     * after its writes.
     */
    boolean isRegisteredSince()
    {
        return control.getLongVolatile(registrationsOffset) != registrationsSeen;
    }

    /**
     * Home, at a release, before it looks at the arrays' counts ({@link #registeredSince}): takes note of the
     * registrations here so far. A registration counted in the word is counted in its array's count already (the
     * fetcher posts that one first), so the arrays' counts read after this cover every registration it took note
     * of; one that lands in between is seen in its array now, and in the word at the next release, which then
     * looks at the arrays once more for nothing. The caller has issued a full fence after its writes.
     */
    void takeRegistrations()
    {
        registrationsSeen = control.getLongVolatile(registrationsOffset);
    }

    /**
     * Home, at a release: whether a node registered in the array's copysets since the last call. The caller has
     * issued a full fence after its writes: a registration this misses is ordered after them, and so is the read
     * that follows it.
     */
    boolean registeredSince(final PageTable table)
    {
        final long count = table.memory().getLongVolatile(table.layout().registrationsOffset());
        if (count != table.registrationsSeen())
        {
            table.registrationsSeen(count);
            return true;
        }
        return false;
    }

    /**
     * Home: the pages of a copyset word that another node may cache.
     */
    long shared(final PageTable table, final int word)
    {
        final ArrayRegionLayout layout = table.layout();
        final AtomicBuffer memory = table.memory();
        long shared = 0;
        for (int node = 0; node < nodeCount; node++)
        {
            if (node != nodeId)
            {
                shared |= memory.getLongVolatile(layout.copysetOffset(node, word));
            }
        }
        return shared;
    }

    /**
     * Home: orders this node's writes before its reads of the copysets (the release side of the registration
     * handshake).
     */
    static void fence()
    {
        VarHandle.fullFence();
    }

    private void leave(final PageTable table, final int word, final long leave)
    {
        final int offset = table.layout().copysetOffset(nodeId, word);
        counters.add(Counter.COPYSET_LEAVES, Long.bitCount(leave));
        long left = leave;
        while (0 != left)
        {
            final int home = table.homes().home((word << 6) + Long.numberOfTrailingZeros(left));
            long atHome = 0;
            for (long bits = left; 0 != bits; bits &= bits - 1)
            {
                final int bit = Long.numberOfTrailingZeros(bits);
                if (table.homes().home((word << 6) + bit) == home)
                {
                    atHome |= 1L << bit;
                }
            }
            port.postFetchAndAdd(home, table.region(), offset, -atHome);
            left &= ~atHome;
        }
    }
}
