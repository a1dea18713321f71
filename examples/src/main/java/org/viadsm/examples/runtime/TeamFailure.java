package org.viadsm.examples.runtime;

/**
 * A team run failed: names the first member that failed, with its exception as the cause.
 */
public final class TeamFailure extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int member;

    /**
     * Creates the failure.
     *
     * @param member id of the member that failed.
     * @param cause  what it threw.
     */
    public TeamFailure(final int member, final Throwable cause)
    {
        super("member " + member + " failed: " + cause, cause);
        this.member = member;
    }

    /**
     * The member that failed first.
     *
     * @return its id.
     */
    public int member()
    {
        return member;
    }
}
