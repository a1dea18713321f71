package org.viadsm.consistency.port;

/**
 * Encoding of the 32-bit notifications the protocol sends: a 4-bit type and a 28-bit argument.
 * <pre>
 *  31      28 27                                                  0
 * +----------+-----------------------------------------------------+
 * |   type   |                      argument                       |
 * +----------+-----------------------------------------------------+
 * </pre>
 */
public final class Notifications
{
    /** A lock was handed over; the argument is the lock id and the grant slot holds the releaser's clock. */
    public static final int GRANT = 1;
    /** A barrier round message; the argument is {@code kind << 9 | epochParity << 8 | round}. */
    public static final int BARRIER = 2;
    /** The sender is leaving the cluster. */
    public static final int LEAVE = 3;
    /** The sender broke the barrier (timed out or was interrupted in it); the argument says which. */
    public static final int BROKEN = 4;
    /**
     * The sender lost a node, so the cluster has stopped; the argument is the lost node. The port handles it (the
     * protocol never sees it); the highest type, to stay clear of the protocol's own.
     */
    public static final int STOPPED = 15;

    /** Largest argument. */
    public static final int MAX_ARGUMENT = (1 << 28) - 1;

    private Notifications()
    {
    }

    /**
     * Builds a notification.
     *
     * @param type     the type.
     * @param argument the argument, at most {@link #MAX_ARGUMENT}.
     * @return the notification.
     */
    public static int of(final int type, final int argument)
    {
        return (type << 28) | (argument & MAX_ARGUMENT);
    }

    /**
     * The type of a notification.
     *
     * @param notification the notification.
     * @return its type.
     */
    public static int type(final int notification)
    {
        return notification >>> 28;
    }

    /**
     * The argument of a notification.
     *
     * @param notification the notification.
     * @return its argument.
     */
    public static int argument(final int notification)
    {
        return notification & MAX_ARGUMENT;
    }
}
