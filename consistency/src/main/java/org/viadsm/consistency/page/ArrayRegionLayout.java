package org.viadsm.consistency.page;

import org.viadsm.consistency.home.FirstTouchHomePolicy;

/**
 * Layout of a shared array's region, the same on every node: the pages, then what peers read and change
 * one-sided at the pages' homes.
 * <pre>
 *  pages                 pages x pageSize   this node's copy (the master copy of the pages it is home of)
 *  first-touch directory see FirstTouchHomePolicy: the homes claimed so far, kept by node (page mod N)
 *  registration count    8 B                bumped by every fetcher after it adds itself to copysets here
 *  copysets              N x words x 8 B    fetcher f's word w at (f * words + w) * 8: bit (p mod 64) of word
 *                                           (p / 64) set while f may cache page p, for the pages homed here
 * </pre>
 * A node's own copyset slot (fetcher = itself) is never read at its home: nobody fetches its own pages.
 */
public final class ArrayRegionLayout
{
    private final int words;
    private final int directoryOffset;
    private final int registrationsOffset;
    private final int copysetsOffset;
    private final long length;

    /**
     * Computes the layout.
     *
     * @param pages     pages of the array.
     * @param pageSize  bytes per page.
     * @param nodeCount number of nodes.
     */
    public ArrayRegionLayout(final int pages, final int pageSize, final int nodeCount)
    {
        this.words = (pages + Long.SIZE - 1) / Long.SIZE;
        final long directory = (long)pages * pageSize;
        final long registrations = directory + FirstTouchHomePolicy.directoryLength(pages, nodeCount);
        final long copysets = registrations + Long.BYTES;
        this.length = copysets + (long)nodeCount * words * Long.BYTES;
        this.directoryOffset = (int)Math.min(Integer.MAX_VALUE, directory);
        this.registrationsOffset = (int)Math.min(Integer.MAX_VALUE, registrations);
        this.copysetsOffset = (int)Math.min(Integer.MAX_VALUE, copysets);
    }

    /**
     * Bytes of the region, computed without overflow so that arrays too large for a region can be refused.
     *
     * @return the length.
     */
    public long length()
    {
        return length;
    }

    /**
     * Offset of the first-touch directory.
     *
     * @return the offset, right after the pages.
     */
    public int directoryOffset()
    {
        return directoryOffset;
    }

    /**
     * Offset of the registration count.
     *
     * @return the offset.
     */
    public int registrationsOffset()
    {
        return registrationsOffset;
    }

    /**
     * Offset of a fetcher's copyset word.
     *
     * @param fetcher the node caching the pages.
     * @param word    the word: pages {@code [64 word, 64 word + 64)}.
     * @return the offset.
     */
    public int copysetOffset(final int fetcher, final int word)
    {
        return copysetsOffset + (fetcher * words + word) * Long.BYTES;
    }

    /**
     * Copyset words per fetcher.
     *
     * @return {@code ceil(pages / 64)}.
     */
    public int words()
    {
        return words;
    }
}
