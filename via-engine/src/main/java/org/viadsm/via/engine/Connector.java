package org.viadsm.via.engine;

import org.viadsm.via.ConnectRequest;
import org.viadsm.via.Nic;
import org.viadsm.via.Vi;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

/**
 * Connection management of one NIC, client/server and peer to peer: what {@link Nic#connectWait(long, long)} and
 * the connection calls of {@link Vi} do. The steps are the same whatever carries the requests: the requesting VI's
 * connect word gets a fresh sequence number and the VI becomes connect-pending ({@link ViConnection#beginConnect()}),
 * the request goes out ({@link ConnectAttempt#send}), the connect word is settled once by whoever answers first (the
 * answering side, or the requester giving up, {@link #giveUp}), then the connection is established. A provider's
 * subclass says how requests travel and how answers show: the engine's own works on the peers' shared areas; a
 * provider that reaches its peers only through messages brings its own ({@link NicTransport#connector()}).
 * <p>
 * <b>Note:</b> thread-safe, as subclasses must be.
 */
public abstract class Connector
{
    /** How long a side that accepted waits for the connection to be established before it gives up. */
    public static final long ESTABLISH_TIMEOUT_NS = 30_000_000_000L;

    /** The NIC whose VIs connect. */
    protected final EngineNic nic;

    /**
     * Creates the connector of a NIC.
     *
     * @param nic the NIC.
     */
    protected Connector(final EngineNic nic)
    {
        this.nic = nic;
    }

    /**
     * Makes a request for a VI: resolves the other side, which may fail at once, without touching the VI.
     *
     * @param vi            the requesting VI.
     * @param address       the other side's NIC address.
     * @param discriminator the discriminator.
     * @param peer          true for peer to peer.
     * @param timeoutNs     how long the request may stay unanswered.
     * @return the request, not yet begun.
     * @throws ViaException with {@link ViaError#NOT_REACHABLE} if the address cannot be reached at all.
     */
    protected abstract ConnectAttempt newAttempt(
        ViConnection vi, String address, long discriminator, boolean peer, long timeoutNs);

    /**
     * Takes a client's request with the given discriminator that reached this NIC, if any.
     *
     * @param discriminator the discriminator.
     * @return the request, or null.
     */
    protected abstract ConnectRequest takeClientRequest(long discriminator);

    /**
     * The VI's current peer-to-peer request.
     *
     * @param vi the VI.
     * @return the request, or null if it has none.
     */
    protected abstract ConnectAttempt peerAttempt(ViConnection vi);

    /**
     * Makes progress on peer-to-peer matching: answers the other NICs' requests a VI of this NIC now waits for.
     */
    protected abstract void poll();

    /**
     * Called at every step of a connection wait (for a client's request, for an answer), so that a provider whose
     * setup messages arrive only while a thread makes progress takes them. The default does nothing.
     */
    protected void onWaiting()
    {
    }

    /**
     * Cancels the pending request of a VI being disconnected.
     *
     * @param vi the VI, connect-pending.
     * @return the record state to tear down from: idle if the request was cancelled, else the state it reached.
     */
    public abstract int abandon(ViConnection vi);

    /**
     * Waits for a client's request with the given discriminator.
     *
     * @param discriminator the discriminator.
     * @param timeoutNs     longest wait.
     * @return the request.
     * @throws ViaException          with {@link ViaError#TIMEOUT} if none came in time.
     * @throws IllegalStateException if the NIC closed.
     */
    public final ConnectRequest connectWait(final long discriminator, final long timeoutNs)
    {
        final Idler idler = new Idler(nic);
        idler.start(timeoutNs);
        do
        {
            // progress first: a requester that gave up withdrew its request, and the withdrawal may be waiting
            onWaiting();
            final ConnectRequest request = takeClientRequest(discriminator);
            if (null != request)
            {
                idler.finish();
                return request;
            }
        }
        while (idler.idle());
        checkNicOpen();
        throw new ViaException(ViaError.TIMEOUT, "no connection request with discriminator " + discriminator +
            " reached " + nic.address() + " within " + timeoutNs + " ns");
    }

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
    public final void connectRequest(
        final ViConnection vi, final String address, final long discriminator, final long timeoutNs)
    {
        final Idler idler = new Idler(nic);
        idler.start(timeoutNs);
        final ConnectAttempt attempt = newAttempt(vi, address, discriminator, false, timeoutNs);
        attempt.begin();
        attempt.send(idler);
        long word;
        int polls = 0;
        while (ViRecordLayout.RESULT_PENDING == ViRecordLayout.connectResult(word = vi.connectWord()))
        {
            onWaiting();
            final String lost = attempt.lostReason(++polls);
            if (null != lost)
            {
                giveUp(attempt, ViaError.NOT_REACHABLE, lost);
            }
            else if (!idler.idle())
            {
                checkNicOpen();
                giveUp(attempt, attempt.unansweredError(), attempt.unansweredMessage(timeoutNs));
            }
        }
        idler.finish();
        final int result = ViRecordLayout.connectResult(word);
        if (ViRecordLayout.RESULT_ACCEPTED == result)
        {
            attempt.awaitEstablished(ViRecordLayout.connectPeerVi(word));
            attempt.forget();
            return;
        }
        vi.backToIdle();
        attempt.forget();
        switch (result)
        {
            case ViRecordLayout.RESULT_REJECTED:
                throw new ViaException(ViaError.REJECT, address + " rejected the connection request of VI " +
                    vi.id() + " with discriminator " + discriminator);
            case ViRecordLayout.RESULT_NO_MATCH:
                throw new ViaException(ViaError.NO_MATCH, address + " cannot connect VI " + vi.id() +
                    ": reliability levels differ");
            default:
                throw new ViaException(ViaError.NOT_REACHABLE, "connection request of VI " + vi.id() +
                    " was abandoned (the VI disconnected)");
        }
    }

    /**
     * Starts a peer-to-peer request.
     *
     * @param vi            the VI.
     * @param address       the peer's address.
     * @param discriminator the discriminator both peers use.
     * @param timeoutNs     how long the request stays outstanding.
     * @throws IllegalStateException if the VI is not idle.
     * @throws ViaException          if the peer cannot be reached or its request ring is full.
     */
    public final void connectPeerRequest(
        final ViConnection vi, final String address, final long discriminator, final long timeoutNs)
    {
        final ConnectAttempt attempt = newAttempt(vi, address, discriminator, true, timeoutNs);
        attempt.begin();
        attempt.send(null);
    }

    /**
     * Polls a peer-to-peer request.
     *
     * @param vi the VI.
     * @return true once connected.
     * @throws IllegalStateException if the VI has no peer request.
     * @throws ViaException          if the request failed or timed out.
     */
    public final boolean connectPeerDone(final ViConnection vi)
    {
        final ConnectAttempt attempt = peerAttempt(vi);
        if (null == attempt)
        {
            throw new IllegalStateException("VI " + vi.id() + " has no peer connection request");
        }
        if (attempt.isCompleted())
        {
            return true;
        }
        poll();
        final long word = vi.connectWord();
        switch (ViRecordLayout.connectResult(word))
        {
            case ViRecordLayout.RESULT_PENDING:
                if (attempt.isPastDeadline(System.nanoTime()))
                {
                    giveUp(attempt, attempt.unansweredError(), attempt.unansweredMessage(-1));
                }
                final String lost = attempt.lostReason(0);
                if (null != lost)
                {
                    giveUp(attempt, ViaError.NOT_REACHABLE, lost);
                }
                return false;
            case ViRecordLayout.RESULT_ACCEPTED:
                return attempt.onPeerAccepted(ViRecordLayout.connectPeerVi(word));
            case ViRecordLayout.RESULT_NO_MATCH:
                vi.backToIdle();
                attempt.forget();
                throw new ViaException(ViaError.NO_MATCH, "the peer at " + attempt.address() + " has another " +
                    "reliability level than VI " + vi.id() + " (" + vi.reliability() + ")");
            default:
                vi.backToIdle();
                attempt.forget();
                throw new ViaException(ViaError.NOT_REACHABLE, "peer connection request of VI " + vi.id() +
                    " was abandoned");
        }
    }

    /**
     * Waits for a peer-to-peer request, polling {@link #connectPeerDone(ViConnection)}.
     *
     * @param vi        the VI.
     * @param timeoutNs longest wait.
     * @throws IllegalStateException if the VI has no peer request, or its NIC closed.
     * @throws ViaException          if the request failed, or with {@link ViaError#TIMEOUT}.
     */
    public final void connectPeerWait(final ViConnection vi, final long timeoutNs)
    {
        final Idler idler = new Idler(nic);
        idler.start(timeoutNs);
        while (!connectPeerDone(vi))
        {
            if (!idler.idle())
            {
                checkNicOpen();
                throw new ViaException(ViaError.TIMEOUT, "peer connection of VI " + vi.id() +
                    " did not complete within " + timeoutNs + " ns");
            }
        }
        idler.finish();
    }

    /**
     * Settles the request as abandoned, makes the VI idle, forgets the request and throws; if an answer won the
     * race, returns and lets the caller read it.
     *
     * @param attempt the request.
     * @param error   the error to throw.
     * @param message what happened.
     * @throws ViaException unless an answer settled the request first.
     */
    protected final void giveUp(final ConnectAttempt attempt, final ViaError error, final String message)
    {
        if (attempt.vi().settle(attempt.sequence(), 0, ViRecordLayout.RESULT_ABANDONED))
        {
            attempt.vi().backToIdle();
            attempt.forget();
            throw new ViaException(error, message);
        }
    }

    /**
     * Throws if the NIC closed, so that a wait it ended fails as closed rather than timed out.
     *
     * @throws IllegalStateException if the NIC is closed.
     */
    protected final void checkNicOpen()
    {
        if (nic.isClosed())
        {
            throw new IllegalStateException("NIC " + nic.address() + " is closed");
        }
    }
}
