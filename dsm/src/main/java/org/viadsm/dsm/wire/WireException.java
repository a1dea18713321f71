package org.viadsm.dsm.wire;

/**
 * Bytes that are not a well-formed message of the expected type; the message says what was wrong.
 */
public final class WireException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was wrong.
     */
    public WireException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what was wrong.
     * @param cause   the decoder's failure.
     */
    public WireException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
