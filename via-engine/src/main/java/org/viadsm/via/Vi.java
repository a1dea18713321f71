package org.viadsm.via;

import org.viadsm.via.descriptor.Descriptor;

/**
 * A Virtual Interface: one end of a point-to-point connection, with a send work queue and a receive work queue.
 * <p>
 * Data moves by posting {@link Descriptor}s: on the send queue a Send, an RDMA Write, an RDMA Read or a remote
 * atomic; on the receive queue a buffer for the peer's next Send or RDMA Write with immediate data. Each queue
 * completes its descriptors in the order they were posted, and returns them through {@code sendDone}/{@code
 * recvDone} (polling) or {@code sendWait}/{@code recvWait} (waiting), or announces them on an attached
 * {@link CompletionQueue}.
 * <p>
 * Errors on the data path never throw: they complete descriptors with {@code DescriptorStatus} error bits, as
 * {@link ReliabilityLevel} describes per level. Misuse (posting a posted descriptor, a Send on a VI that is not
 * connected, waiting on a queue attached to a completion queue) throws.
 * <p>
 * <b>Note:</b> each work queue may be used by one thread at a time (its post, done and wait calls); the two queues
 * may be used by different threads concurrently. Connection calls may come from any thread.
 * <p>
 * Memory consistency effects: actions in a thread prior to posting a descriptor happen-before the NIC's reads of
 * its data segments, and the NIC's writes of a completed descriptor and of its data segments happen-before the
 * return of the done or wait call that hands it back.
 */
public interface Vi extends AutoCloseable
{
    /**
     * This VI's number on its NIC.
     *
     * @return the VI id.
     */
    int id();

    /**
     * The NIC this VI belongs to.
     *
     * @return the NIC.
     */
    Nic nic();

    /**
     * A copy of the attributes the VI was created with.
     *
     * @return the attributes.
     */
    ViAttributes attributes();

    /**
     * The connection state.
     *
     * @return the state.
     */
    ViState state();

    /**
     * The peer's attributes, once connected.
     *
     * @return a copy of the peer VI's attributes, or null if never connected.
     */
    ViAttributes remoteAttributes();

    /**
     * The peer's NIC address, once connected.
     *
     * @return the peer address, or null if never connected.
     */
    String remoteAddress();

    /**
     * Client side of client/server connection: asks the NIC at {@code remoteAddress} to connect this VI to one of
     * its VIs, and waits for the answer, as {@code VipConnectRequest} does.
     *
     * @param remoteAddress provider address of the server NIC.
     * @param discriminator the discriminator the server waits on.
     * @param timeoutNs     longest wait for the answer.
     * @throws IllegalStateException if the VI is not idle.
     * @throws ViaException          with {@link ViaError#REJECT}, {@link ViaError#TIMEOUT},
     *                               {@link ViaError#NOT_REACHABLE} or {@link ViaError#NO_MATCH}.
     */
    void connectRequest(String remoteAddress, long discriminator, long timeoutNs);

    /**
     * Peer-to-peer connection: starts connecting this VI to whichever VI of the NIC at {@code remoteAddress} makes
     * the matching request with the same discriminator, as {@code VipConnectPeerRequest} does. Completion is
     * learned from {@link #connectPeerDone()} or {@link #connectPeerWait(long)}.
     * <p>
     * The nodes of a cluster start at different moments: over tcp, a request to an address where no NIC listens
     * yet is retried until {@code timeoutNs} runs out, and only then fails with {@link ViaError#NOT_REACHABLE}.
     *
     * @param remoteAddress provider address of the peer NIC.
     * @param discriminator the discriminator both peers use.
     * @param timeoutNs     longest time the request stays outstanding.
     * @throws IllegalStateException if the VI is not idle.
     */
    void connectPeerRequest(String remoteAddress, long discriminator, long timeoutNs);

    /**
     * Polls an outstanding peer-to-peer request, as {@code VipConnectPeerDone} does.
     *
     * @return true once connected; false while still pending.
     * @throws IllegalStateException if no peer request is outstanding or completed.
     * @throws ViaException          if the request failed or timed out.
     */
    boolean connectPeerDone();

    /**
     * Waits for an outstanding peer-to-peer request to complete, as {@code VipConnectPeerWait} does.
     *
     * @param timeoutNs longest wait.
     * @throws IllegalStateException if no peer request is outstanding or completed.
     * @throws ViaException          if the request failed, or with {@link ViaError#TIMEOUT}.
     */
    void connectPeerWait(long timeoutNs);

    /**
     * Ends the connection: every outstanding descriptor on both queues completes with
     * {@code DESC_FLUSHED_ERROR}, the peer VI enters {@link ViState#ERROR} and its NIC reports
     * {@link AsyncError#CONNECTION_LOST}; this VI becomes {@link ViState#IDLE} and may connect again. Does nothing
     * on an idle VI.
     */
    void disconnect();

    /**
     * Posts a descriptor on the send queue.
     *
     * @param descriptor the descriptor: a Send, RDMA Write, RDMA Read or atomic.
     * @throws IllegalStateException if the descriptor is already posted, the VI is idle or connecting, or the send
     *                               queue holds {@code NicAttributes.maxDescriptorsPerQueue()} descriptors not yet
     *                               taken back.
     */
    void postSend(Descriptor descriptor);

    /**
     * Takes the oldest send descriptor if it has completed.
     *
     * @return the descriptor, or null if none has completed.
     */
    Descriptor sendDone();

    /**
     * Takes the oldest send descriptor, waiting up to {@code timeoutNs} for it to complete: spins briefly, then
     * parks. Returns null at once if no descriptor is posted on the queue.
     *
     * @param timeoutNs longest wait.
     * @return the descriptor, or null on timeout, on interruption of the thread, or when the NIC closes.
     * @throws IllegalStateException if the send queue is attached to a completion queue.
     */
    Descriptor sendWait(long timeoutNs);

    /**
     * Posts a receive descriptor: a buffer for the peer's next Send (or a slot for its next RDMA Write with
     * immediate data).
     *
     * @param descriptor the descriptor, with data segments for the incoming data.
     * @throws IllegalArgumentException if its segment count exceeds the segments it holds (nothing is posted).
     * @throws IllegalStateException    if the descriptor is already posted or the receive queue is full.
     */
    void postRecv(Descriptor descriptor);

    /**
     * Takes the oldest receive descriptor if it has completed.
     *
     * @return the descriptor, or null if none has completed.
     */
    Descriptor recvDone();

    /**
     * Takes the oldest receive descriptor, waiting up to {@code timeoutNs} for it to complete: spins briefly, then
     * parks. Returns null at once if no descriptor is posted on the queue.
     *
     * @param timeoutNs longest wait.
     * @return the descriptor, or null on timeout, on interruption of the thread, or when the NIC closes.
     * @throws IllegalStateException if the receive queue is attached to a completion queue.
     */
    Descriptor recvWait(long timeoutNs);

    /**
     * The completion queue the send queue reports to.
     *
     * @return the queue, or null.
     */
    CompletionQueue sendCq();

    /**
     * The completion queue the receive queue reports to.
     *
     * @return the queue, or null.
     */
    CompletionQueue recvCq();

    /**
     * Destroys the VI, disconnecting it first if needed: a wait in progress on it returns null, and descriptors still
     * posted are handed back flushed.
     */
    @Override
    void close();
}
