package org.viadsm.consistency.sync;

/**
 * Encoding of a node's queue element word for one lock, in the node's control region. The word holds the
 * element's state and, while the element is queued, the node that joined the queue right behind it; a
 * {@link #CACHED} word holds instead the releaser's own clock entry when the cluster has two nodes (see
 * {@link #cached(long)}):
 * <pre>
 *  63                                                      3 2     0
 * +---------------------------------------------------------+-------+
 * |  successor node id + 1 (0: none), or the cached stamp    | state |
 * +---------------------------------------------------------+-------+
 * </pre>
 * States and who moves the element between them (every change is a compare-and-swap, so racing parties agree):
 * <ul>
 * <li>{@link #IDLE}: not in the lock's queue.</li>
 * <li>{@link #WAITING}: queued; set by the node itself before it joins the tail, or by a signaller that moves the
 * node from a condition into the queue. A successor adds itself; the predecessor's release makes it
 * {@link #HELD} and sends the grant; the node itself makes it {@link #ABANDONED} when it gives up.</li>
 * <li>{@link #HELD}: the node holds the lock.</li>
 * <li>{@link #ABANDONED}: the node gave up waiting but its element is still queued. The node may rejoin at the same
 * place ({@link #WAITING}). A release that reaches it passes the lock on to its successor ({@link #IDLE}), or,
 * with none yet, leaves the lock here ({@link #DEPOSITED}).</li>
 * <li>{@link #CACHED}: the node released the lock and nobody had queued behind it: the lock is free and stays
 * here, with this node's clock beside the word (or, with two nodes, its own entry of that clock in the word). The
 * node takes it back with a local compare-and-swap; a node that queues behind takes it remotely ({@link #IDLE})
 * and reads the clock, unless the word brought it.</li>
 * <li>{@link #DEPOSITED}: as {@link #CACHED}, but left by a release that found this element abandoned, with that
 * releaser's clock: whoever takes it, this node included, acquires that clock.</li>
 * </ul>
 * With more than two nodes a node queues behind its predecessor by adding itself as the successor with
 * fetch-and-add ({@link #successorDelta(int)}), which needs no guess of the predecessor's state: a queued element
 * has no successor yet, and nobody else adds one. Added to a {@link #CACHED} or {@link #DEPOSITED} word, it takes
 * the lock: such a word with a successor is {@link #IDLE} to its own node ({@link #ownState(long, int)}).
 */
final class LockWord
{
    static final int IDLE = 0;
    static final int WAITING = 1;
    static final int HELD = 2;
    static final int ABANDONED = 3;
    static final int CACHED = 4;
    static final int DEPOSITED = 5;

    private static final int STATE_BITS = 3;
    private static final long STATE_MASK = (1L << STATE_BITS) - 1;
    private static final String[] NAMES = {"idle", "waiting", "held", "abandoned", "cached", "deposited", "#6", "#7"};

    private LockWord()
    {
    }

    /**
     * A word.
     *
     * @param state     the state.
     * @param successor the successor node, or -1 for none.
     * @return the word.
     */
    static long of(final int state, final int successor)
    {
        return (long)(successor + 1) << STATE_BITS | state;
    }

    /**
     * A {@link #CACHED} word with a stamp: the releaser's own clock entry, which with two nodes is all of its clock
     * that the other node can lack (nobody's clock is ahead of a node's own entry for that node), so that the
     * other node's compare-and-swap that takes the lock brings the clock too. Without a stamp (0) the clock is
     * beside the word.
     *
     * @param stamp the releaser's own clock entry, from 0 to 2^61 - 1.
     * @return the word.
     */
    static long cached(final long stamp)
    {
        return stamp << STATE_BITS | CACHED;
    }

    /**
     * The stamp of a {@link #cached(long)} word.
     *
     * @param word a {@link #CACHED} word.
     * @return its stamp.
     */
    static long stamp(final long word)
    {
        return word >>> STATE_BITS;
    }

    /**
     * The state of a word.
     *
     * @param word the word.
     * @return its state.
     */
    static int state(final long word)
    {
        return (int)(word & STATE_MASK);
    }

    /**
     * The state of a word as the element's own node sees it.
     *
     * @param word      the word.
     * @param nodeCount nodes in the cluster.
     * @return its state, except {@link #IDLE} for a {@link #CACHED} or {@link #DEPOSITED} word with a successor
     *         when the cluster has more than two nodes: the successor took the lock from the element (with two, a
     *         cached word's upper bits are a stamp, see {@link #cached(long)}, and nobody adds a successor to it).
     */
    static int ownState(final long word, final int nodeCount)
    {
        final int state = state(word);
        return 2 != nodeCount && (CACHED == state || DEPOSITED == state) && successor(word) >= 0 ? IDLE : state;
    }

    /**
     * What a node adds to its predecessor's word, which has no successor, to become its successor.
     *
     * @param successor the node.
     * @return the addend.
     */
    static long successorDelta(final int successor)
    {
        return (long)(successor + 1) << STATE_BITS;
    }

    /**
     * The successor of a word.
     *
     * @param word the word.
     * @return the successor node, or -1 for none.
     */
    static int successor(final long word)
    {
        return (int)(word >>> STATE_BITS) - 1;
    }

    /**
     * The same word in another state.
     *
     * @param word  the word.
     * @param state the new state.
     * @return the word with the successor kept.
     */
    static long withState(final long word, final int state)
    {
        return (word & ~STATE_MASK) | state;
    }

    /**
     * The same word with a successor.
     *
     * @param word      the word.
     * @param successor the successor node.
     * @return the word with the state kept.
     */
    static long withSuccessor(final long word, final int successor)
    {
        return of(state(word), successor);
    }

    /**
     * A word for messages.
     *
     * @param word the word.
     * @return e.g. {@code waiting, successor 2}.
     */
    static String describe(final long word)
    {
        if (CACHED == state(word))
        {
            return NAMES[CACHED] + (0 != stamp(word) ? ", stamp " + stamp(word) : "");
        }
        final int successor = successor(word);
        return NAMES[state(word)] + (successor >= 0 ? ", successor " + successor : "");
    }
}
