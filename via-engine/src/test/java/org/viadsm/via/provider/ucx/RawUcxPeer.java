package org.viadsm.via.provider.ucx;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpListener;
import org.openucx.jucx.ucp.UcpListenerParams;
import org.openucx.jucx.ucp.UcpParams;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucp.UcpWorkerParams;

/**
 * A raw UCX peer of a ucx NIC, without the provider: a context, a worker and a listener on the loopback interface,
 * so that a test can send a NIC what the provider never would and see what the NIC answers. The listener keeps
 * every endpoint it accepts (the test closes them); the worker decodes every connection-setup message it receives
 * and hands it to the test. <b>Note:</b> the handlers run in {@link UcpWorker#progress()}, on the thread that
 * calls it.
 */
final class RawUcxPeer implements AutoCloseable
{
    private final List<UcpEndpoint> accepted = new CopyOnWriteArrayList<>();
    private final UcpContext context;
    private final UcpWorker worker;
    private final UcpListener listener;

    /**
     * Opens the peer.
     *
     * @param onHandshake takes each connection-setup message the peer receives, decoded.
     */
    RawUcxPeer(final Consumer<Handshake> onHandshake)
    {
        context = new UcpContext(new UcpParams().requestAmFeature().requestWakeupFeature());
        UcpWorker opened = null;
        try
        {
            opened = context.newWorker(new UcpWorkerParams());
            final UcpWorker acceptor = opened;
            listener = opened.newListener(new UcpListenerParams()
                .setSockAddr(new InetSocketAddress("127.0.0.1", 0))
                .setConnectionHandler(connection -> accepted.add(acceptor.newEndpoint(new UcpEndpointParams()
                    .setConnectionRequest(connection).setPeerErrorHandlingMode()
                    .setErrorHandler((endpoint, status, message) -> { })))));
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(opened, context);
            throw ex;
        }
        worker = opened;
        worker.setAmRecvHandler(Handshake.AM_ID, (header, headerLength, data, reply) ->
        {
            onHandshake.accept(Handshake.decode(new UnsafeBuffer(header, (int)headerLength), (int)headerLength,
                new UnsafeBuffer(data.getDataAddress(), (int)data.getLength()), data.getLength()));
            return 0;
        });
    }

    /**
     * An endpoint from a worker to a listener, with peer error handling and no error handler of its own.
     *
     * @param worker the worker.
     * @param target the listener's address.
     * @return the endpoint, which the caller closes.
     */
    static UcpEndpoint connect(final UcpWorker worker, final InetSocketAddress target)
    {
        return worker.newEndpoint(new UcpEndpointParams().setSocketAddress(target).setPeerErrorHandlingMode()
            .setErrorHandler((endpoint, status, message) -> { }));
    }

    /**
     * An endpoint of this peer's worker to a listener, as {@link #connect(UcpWorker, InetSocketAddress)}.
     *
     * @param target the listener's address.
     * @return the endpoint, which the caller closes.
     */
    UcpEndpoint connect(final InetSocketAddress target)
    {
        return connect(worker, target);
    }

    /**
     * The peer's worker, for the test to make progress on and send from.
     *
     * @return the worker.
     */
    UcpWorker worker()
    {
        return worker;
    }

    /**
     * The peer's listener as a NIC address.
     *
     * @return {@code ucx:127.0.0.1:<port>}.
     */
    String address()
    {
        return "ucx:127.0.0.1:" + listener.getAddress().getPort();
    }

    /**
     * The endpoints the listener accepted so far, in order; the test closes them.
     *
     * @return a live view.
     */
    List<UcpEndpoint> accepted()
    {
        return accepted;
    }

    /**
     * Closes the listener, the worker and the context, in that order.
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(listener, worker, context);
    }
}
