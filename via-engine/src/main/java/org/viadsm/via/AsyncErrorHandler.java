package org.viadsm.via;

/**
 * Receives {@link AsyncError}s, as VIPL's {@code VipErrorCallback} does.
 * <p>
 * <b>Note:</b> the handler runs on a thread inside a call into the NIC (a post, done or wait call of any of its
 * VIs or completion queues, a connection call) or on the provider's engine thread where it has one. It must not
 * block and must not throw (an exception it throws is ignored); it may read VI state, and it may close the NIC, whose
 * memory is then released when the call that ran the handler returns.
 */
@FunctionalInterface
public interface AsyncErrorHandler
{
    /**
     * Called once per asynchronous error.
     *
     * @param error  what happened.
     * @param vi     the VI concerned, or null if the error concerns the whole NIC.
     * @param detail a sentence naming the peer, handle or values involved.
     */
    void onAsyncError(AsyncError error, Vi vi, String detail);
}
