package org.viadsm.via.engine;

import org.viadsm.via.ConnectRequest;
import org.viadsm.via.Nic;
import org.viadsm.via.Vi;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

/**
 * Connection management of one NIC, client/server and peer to peer: what {@link Nic#connectWait(long, long)} and
 * the connection calls of {@link Vi} do. The engine's own implementation works on the peers' shared areas; a
 * provider that reaches its peers only through messages brings its own (see {@link EngineNic#connector()}).
 * <p>
 * Either way the requesting VI's record follows the same steps: {@link ViRecord#beginConnect(int)} with a fresh
 * {@link EngineVi#nextConnectSequence()}, the connect word settled once by whoever answers first (the answering
 * side, or the requester giving up), then {@link ViRecord#establish}.
 * <p>
 * <b>Note:</b> implementations are thread-safe.
 */
public interface Connector
{
    /** How long a side that accepted waits for the connection to be established before it gives up. */
    long ESTABLISH_TIMEOUT_NS = 30_000_000_000L;

    /**
     * Waits for a client's request with the given discriminator.
     *
     * @param discriminator the discriminator.
     * @param timeoutNs     longest wait.
     * @return the request.
     * @throws ViaException with {@link ViaError#TIMEOUT} if none came in time.
     */
    ConnectRequest connectWait(long discriminator, long timeoutNs);

    /**
     * Client side: connects an idle VI to a VI of the server at {@code address}, waiting for the answer.
     *
     * @param vi            the VI.
     * @param address       the server's address.
     * @param discriminator the discriminator the server waits on.
     * @param timeoutNs     longest wait.
     * @throws IllegalStateException if the VI is not idle.
     * @throws ViaException          as {@link Vi#connectRequest(String, long, long)} says.
     */
    void connectRequest(EngineVi vi, String address, long discriminator, long timeoutNs);

    /**
     * Starts a peer-to-peer request.
     *
     * @param vi            the VI.
     * @param address       the peer's address.
     * @param discriminator the discriminator both peers use.
     * @param timeoutNs     how long the request stays outstanding.
     * @throws IllegalStateException if the VI is not idle.
     */
    void connectPeerRequest(EngineVi vi, String address, long discriminator, long timeoutNs);

    /**
     * Polls a peer-to-peer request.
     *
     * @param vi the VI.
     * @return true once connected.
     * @throws IllegalStateException if the VI has no peer request.
     * @throws ViaException          if the request failed or timed out.
     */
    boolean connectPeerDone(EngineVi vi);

    /**
     * Waits for a peer-to-peer request, polling {@link #connectPeerDone(EngineVi)}.
     *
     * @param vi        the VI.
     * @param timeoutNs longest wait.
     * @throws IllegalStateException if the VI has no peer request, or its NIC closed.
     * @throws ViaException          if the request failed, or with {@link ViaError#TIMEOUT}.
     */
    default void connectPeerWait(final EngineVi vi, final long timeoutNs)
    {
        final EngineNic nic = (EngineNic)vi.nic();
        final Idler idler = new Idler(nic);
        idler.start(timeoutNs);
        while (!connectPeerDone(vi))
        {
            if (!idler.idle(null))
            {
                if (nic.isClosed())
                {
                    throw new IllegalStateException("NIC " + nic.address() + " is closed");
                }
                throw new ViaException(ViaError.TIMEOUT, "peer connection of VI " + vi.id() +
                    " did not complete within " + timeoutNs + " ns");
            }
        }
        idler.finish();
    }

    /**
     * Cancels the pending request of a VI being disconnected.
     *
     * @param vi the VI, connect-pending.
     * @return the record state to tear down from: idle if the request was cancelled, else the state it reached.
     */
    int abandon(EngineVi vi);
}
