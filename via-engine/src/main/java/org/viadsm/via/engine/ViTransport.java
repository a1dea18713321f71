package org.viadsm.via.engine;

import org.viadsm.via.descriptor.Descriptor;

/**
 * A connected VI's link to its peer when the provider reaches the peer through messages rather than through its
 * shared area: the VI hands its send-queue descriptors to the transport, which ships them to the peer's engine and
 * completes them through {@link ViConnection#completeSend(Descriptor, int, int)} in posting order as responses come
 * back. The target side of the peer's operations stays the engine's ({@link TargetAccess}, {@link RecvCompletion}).
 * <p>
 * <b>Note:</b> {@link #post} is called by the VI's send-queue thread, {@link #disconnect} by any thread; an
 * implementation synchronizes them with its own progress threads.
 */
public interface ViTransport
{
    /**
     * Takes a descriptor just posted on the VI's send queue. A descriptor posted once the connection broke
     * completes at once with {@code DESC_FLUSHED_ERROR}, after the ones posted before it.
     *
     * @param descriptor the descriptor, owned by the NIC until it completes.
     */
    void post(Descriptor descriptor);

    /**
     * The VI disconnects: every send descriptor not yet completed completes with {@code DESC_FLUSHED_ERROR}, the
     * peer is told (its VI enters the error state), and the transport is released. Idempotent.
     *
     * @param detail why, for the peer's asynchronous error.
     */
    void disconnect(String detail);
}
