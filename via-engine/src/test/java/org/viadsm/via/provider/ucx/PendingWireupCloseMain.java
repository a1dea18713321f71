package org.viadsm.via.provider.ucx;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpListener;
import org.openucx.jucx.ucp.UcpListenerParams;
import org.openucx.jucx.ucp.UcpMemMapParams;
import org.openucx.jucx.ucp.UcpMemory;
import org.openucx.jucx.ucp.UcpParams;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucp.UcpWorkerParams;
import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.engine.EngineNic;

/**
 * A ucx NIC that closes while its connections are still being wired up, in a JVM of its own
 * ({@link UcxCloseTest}): UCX 1.13 aborts the process from {@code ucp_worker_destroy} when an endpoint still holds a
 * request its connection never flushed. Two ways to leave one:
 * <ul>
 * <li>{@code silent}: peer requests to a TCP listener of this process that never accepts (the kernel completes the
 * connections into its backlog, so UCX's connection setup waits for an answer that never comes);</li>
 * <li>{@code stalled}: a raw UCX peer of this process sends the NIC a peer request that the NIC accepts, then never
 * makes progress again, so the NIC's data endpoint to its worker, its answer and the peer's own request wait.</li>
 * </ul>
 * Prints {@code CLOSED <state of the NIC's VI before the close>}; for {@code stalled}, then {@code REPORTED} if the
 * close said on standard error, in the exact words of {@link WorkerRelease#report}, that it returned before the
 * worker was destroyed (else what it said); then, once the raw peer makes progress again, {@code RELEASED} when the
 * worker was destroyed ({@code NOT RELEASED} if not within 30 s). Or the failure.
 */
public final class PendingWireupCloseMain
{
    private static final long T = TimeUnit.SECONDS.toNanos(30);
    private static final long DISCRIMINATOR = 9;
    private static final int ROUNDS = 1000;

    private PendingWireupCloseMain()
    {
    }

    /**
     * Sets up, then closes.
     *
     * @param args {@code silent} or {@code stalled}.
     * @throws Exception if the raw peer or the listener cannot be opened.
     */
    public static void main(final String[] args) throws Exception
    {
        try
        {
            if ("silent".equals(args[0]))
            {
                System.out.println("CLOSED " + silent());
                System.out.println(awaitRelease(null) ? "RELEASED" : "NOT RELEASED");
            }
            else
            {
                stalled();
            }
        }
        catch (final RuntimeException ex)
        {
            System.out.println(ex);
        }
    }

    private static ViState silent() throws Exception
    {
        try (ServerSocket listener = new ServerSocket(0, 64, InetAddress.getLoopbackAddress()))
        {
            final Nic nic = Nic.open("ucx:127.0.0.1:0", new NicContext());
            final Vi[] vis = new Vi[4];
            for (int i = 0; i < vis.length; i++)
            {
                vis[i] = vi(nic);
                vis[i].connectPeerRequest("ucx:127.0.0.1:" + listener.getLocalPort(), DISCRIMINATOR, T);
            }
            for (int round = 0; round < ROUNDS; round++)
            {
                for (final Vi vi : vis)
                {
                    checkPending(vi);
                }
            }
            final ViState state = vis[0].state();
            nic.close();
            return state;
        }
    }

    private static void stalled() throws Exception
    {
        // the NIC first: the provider sets UCX's environment (its log level among it) before UCX loads
        final Nic nic = Nic.open("ucx:127.0.0.1:0", new NicContext());
        final List<UcpEndpoint> accepted = new ArrayList<>();
        final UcpContext context = new UcpContext(new UcpParams().requestRmaFeature().requestAmFeature());
        final UcpWorker worker = context.newWorker(new UcpWorkerParams());
        final UcpListener listener = worker.newListener(new UcpListenerParams()
            .setSockAddr(new InetSocketAddress("127.0.0.1", 0))
            .setConnectionHandler(connection -> accepted.add(worker.newEndpoint(new UcpEndpointParams()
                .setConnectionRequest(connection).setPeerErrorHandlingMode()
                .setErrorHandler((endpoint, status, message) -> { })))));
        // UCX 1.13 crashes taking a multi-fragment message for which no handler is set: the NIC's own request
        worker.setAmRecvHandler(Handshake.AM_ID, (header, headerLength, data, reply) -> 0);
        final UcpMemory mirror = context.memoryMap(new UcpMemMapParams().allocate().setLength(4096));
        final String address = "ucx:127.0.0.1:" + listener.getAddress().getPort();
        final Vi vi = vi(nic);
        vi.connectPeerRequest(address, DISCRIMINATOR, T);
        final UcpEndpoint endpoint = RawUcxPeer.connect(worker, new InetSocketAddress("127.0.0.1",
            Integer.parseInt(nic.address().substring(nic.address().lastIndexOf(':') + 1))));
        final Handshake request = new Handshake(Handshake.PEER_REQUEST, 0, -1, 1, -1L, DISCRIMINATOR, 7,
            mirror.getAddress(), ReliabilityLevel.RELIABLE_RECEPTION.vipValue(), 65536, 0, 0, 16, 0,
            bytes(worker.getAddress()), bytes(mirror.getRemoteKeyBuffer()), address);
        final ByteBuffer header = ByteBuffer.allocateDirect(Handshake.HEADER_LENGTH);
        final ByteBuffer data = ByteBuffer.allocateDirect(request.dataLength());
        request.encodeHeader(new UnsafeBuffer(header));
        request.encodeData(new UnsafeBuffer(data));
        final UcpRequest sent = endpoint.sendAmNonBlocking(Handshake.AM_ID, UcxUtils.getAddress(header),
            header.capacity(), UcxUtils.getAddress(data), data.capacity(), 0, null);
        final long deadlineNs = System.nanoTime() + T;
        while (!sent.isCompleted() && System.nanoTime() - deadlineNs < 0)
        {
            worker.progress();
            checkPending(vi);
        }
        // the raw peer makes no progress from here on: whatever the NIC sends it waits; the NIC accepts the peer's
        // request (of the pair, the smaller NIC id accepts, and the peer names the largest) and makes its link
        final UcxTransport transport = (UcxTransport)((EngineNic)nic).transport();
        while (null == transport.link(vi.id()) && System.nanoTime() - deadlineNs < 0)
        {
            checkPending(vi);
        }
        if (null == transport.link(vi.id()))
        {
            throw new IllegalStateException("the NIC did not accept the raw peer's request");
        }
        final ViState state = vi.state();
        final PrintStream err = System.err;
        final ByteArrayOutputStream said = new ByteArrayOutputStream();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        try
        {
            nic.close();
        }
        finally
        {
            System.setErr(err);
        }
        System.out.println("CLOSED " + state);
        final String report = said.toString(StandardCharsets.UTF_8);
        System.out.println((WorkerRelease.report(nic.address()) + System.lineSeparator()).equals(report) ?
            "REPORTED" : report);
        System.out.println(awaitRelease(worker) ? "RELEASED" : "NOT RELEASED");
    }

    /**
     * Waits until no closed NIC's worker waits to be destroyed, making progress on the raw peer's worker if any.
     *
     * @return false if one still waits after {@link #T}.
     */
    private static boolean awaitRelease(final UcpWorker worker) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + T;
        while (0 != WorkerRelease.deferred() && System.nanoTime() - deadlineNs < 0)
        {
            if (null == worker)
            {
                Thread.sleep(1);
            }
            else
            {
                try
                {
                    worker.progress();
                }
                catch (final Exception ex)
                {
                    // the raw peer's ends fail as the closed NIC's ends go: jucx throws that from progress
                }
            }
        }
        return 0 == WorkerRelease.deferred();
    }

    private static void checkPending(final Vi vi)
    {
        if (vi.connectPeerDone())
        {
            throw new IllegalStateException("a request to a peer that never answers connected");
        }
    }

    private static Vi vi(final Nic nic)
    {
        return nic.createVi(new ViAttributes().ptag(nic.createPtag())
            .reliabilityLevel(ReliabilityLevel.RELIABLE_RECEPTION), null, null);
    }

    private static byte[] bytes(final ByteBuffer buffer)
    {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }
}
