package org.viadsm.bench.dsm;

import org.viadsm.via.descriptor.Descriptor;

/**
 * Checks the completion of a baseline's VI operation.
 */
final class Completions
{
    private Completions()
    {
    }

    /**
     * Fails unless the operation completed without error.
     *
     * @param done   what the wait returned, null on timeout.
     * @param posted the descriptor that was posted.
     * @param what   the operation, for the message.
     * @throws IllegalStateException if it timed out or failed.
     */
    static void check(final Descriptor done, final Descriptor posted, final String what)
    {
        if (null == done || done.isError())
        {
            throw new IllegalStateException(what + " failed: " + (null == done ? "no completion" :
                "status=0x" + Integer.toHexString(posted.status())));
        }
    }
}
