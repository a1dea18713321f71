package org.viadsm.via;

/**
 * A VIA control call failed for a reason outside the caller's control: a connection was rejected or timed out, a
 * resource ran out, the provider failed. Misuse of the API throws {@link IllegalArgumentException} or
 * {@link IllegalStateException} instead, and data-path failures complete descriptors with status bits.
 */
public class ViaException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final ViaError error;

    /**
     * Creates the exception.
     *
     * @param error   why the call failed.
     * @param message what failed, naming the addresses, VIs and values involved.
     */
    public ViaException(final ViaError error, final String message)
    {
        super(error + ": " + message);
        this.error = error;
    }

    /**
     * Creates the exception with a cause.
     *
     * @param error   why the call failed.
     * @param message what failed.
     * @param cause   the underlying failure.
     */
    public ViaException(final ViaError error, final String message, final Throwable cause)
    {
        super(error + ": " + message, cause);
        this.error = error;
    }

    /**
     * Why the call failed.
     *
     * @return the error code.
     */
    public ViaError error()
    {
        return error;
    }
}
