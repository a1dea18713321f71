package org.viadsm.dsm.rendezvous;

/**
 * A rendezvous failed: a rank did not come in time, disagreed about the job, or sent something that is not an
 * entry. The message names the rank and the place.
 */
public final class RendezvousException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed.
     */
    public RendezvousException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what failed.
     * @param cause   the underlying failure.
     */
    public RendezvousException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
