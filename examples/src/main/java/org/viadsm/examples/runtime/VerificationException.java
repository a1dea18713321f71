package org.viadsm.examples.runtime;

/**
 * An application's self-check failed: the run's result is wrong. The launcher exits non-zero.
 */
public final class VerificationException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what the check found, with the values compared.
     */
    public VerificationException(final String message)
    {
        super(message);
    }
}
