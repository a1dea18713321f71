package org.viadsm.bench.via;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;

import org.agrona.CloseHelper;
import org.viadsm.via.internal.AgronaAccess;

/**
 * The peer process of {@code viadsm bench via}: the responder side of the ping-pongs and the owner of the remote
 * memory the initiator reads and writes. Started by the benchmark, never by users; it obeys one command per line on
 * standard input and answers on standard output:
 * <pre>
 * open ADDRESS COLD_BYTES         OPENED address handle   (a NIC endpoint; one per provider scheme)
 * connect SCHEME PEER_ADDRESS     CONNECTED               (peer-to-peer, the initiator requests too)
 * echo SCHEME send|write LENGTH PEER_HANDLE   GO, then DONE count   (until the message marked last)
 * raw FILE COLD_BYTES             RAW                     (maps the baselines' file)
 * ring LENGTH                     GO, then DONE count
 * nio PORT blocking|polled LENGTH GO, then DONE count
 * jucx BYTES                      JUCX worker address key (raw UCX with BYTES of UCX-allocated memory)
 * jucx-connect WORKER             LINKED                  (an endpoint to the initiator's raw worker)
 * jucx-echo LENGTH                GO, then DONE count
 * exit                            BYE
 * </pre>
 * A failed command answers {@code ERROR} and a reason. The process ends at {@code exit} or when its input closes.
 */
public final class PeerMain
{
    static final String READY = "READY";
    static final String EXIT = "exit";

    private final Map<String, ViEndpoint> endpoints = new HashMap<>();
    private RawMemory raw;
    private RawUcx ucx;

    private PeerMain()
    {
    }

    /**
     * Runs the peer until {@code exit} or the end of its input.
     *
     * @param args none.
     * @throws IOException if standard input fails.
     */
    public static void main(final String[] args) throws IOException
    {
        AgronaAccess.check();
        final PeerMain peer = new PeerMain();
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.out.println(READY);
        try
        {
            String line;
            while (null != (line = in.readLine()))
            {
                final String[] words = line.trim().split(" ");
                if (EXIT.equals(words[0]))
                {
                    System.out.println("BYE");
                    return;
                }
                System.out.println(peer.execute(words));
            }
        }
        finally
        {
            peer.close();
        }
    }

    private String execute(final String[] words)
    {
        try
        {
            switch (words[0])
            {
                case "open":
                    return open(words[1], Integer.parseInt(words[2]));
                case "connect":
                    final ViEndpoint endpoint = endpoint(words[1]);
                    endpoint.connectRequest(words[2]);
                    endpoint.connectWait();
                    return "CONNECTED";
                case "echo":
                    return done(new ViPingPong(endpoint(words[1]), Integer.parseInt(words[3]),
                        "write".equals(words[2]), Integer.parseInt(words[4])));
                case "raw":
                    CloseHelper.close(raw);
                    raw = RawMemory.map(Paths.get(words[1]), Integer.parseInt(words[2]));
                    return "RAW";
                case "ring":
                    return done(new RingPingPong(raw.ring(RawMemory.IN_RING_OFFSET),
                        raw.ring(RawMemory.OUT_RING_OFFSET), Integer.parseInt(words[1])));
                case "jucx":
                    CloseHelper.close(ucx);
                    ucx = new RawUcx(Integer.parseInt(words[1]));
                    return "JUCX " + ucx.describe();
                case "jucx-connect":
                    ucx.connect(words[1]);
                    return "LINKED";
                case "jucx-echo":
                    return done(new JucxPingPong(ucx, Integer.parseInt(words[1])));
                case "nio":
                    return nio(Integer.parseInt(words[1]), "blocking".equals(words[2]), Integer.parseInt(words[3]));
                default:
                    return "ERROR unknown command " + words[0];
            }
        }
        catch (final RuntimeException | IOException ex)
        {
            ex.printStackTrace();
            return "ERROR " + ex.toString().replace('\n', ' ');
        }
    }

    private String open(final String address, final int coldLength)
    {
        final String scheme = address.substring(0, address.indexOf(':'));
        CloseHelper.close(endpoints.remove(scheme));
        final ViEndpoint endpoint = new ViEndpoint(address, coldLength);
        endpoints.put(scheme, endpoint);
        return "OPENED " + endpoint.nic.address() + " " + endpoint.region.handle();
    }

    private ViEndpoint endpoint(final String scheme)
    {
        final ViEndpoint endpoint = endpoints.get(scheme);
        if (null == endpoint)
        {
            throw new IllegalStateException("no " + scheme + " endpoint is open");
        }
        return endpoint;
    }

    private static String nio(final int port, final boolean blocking, final int length) throws IOException
    {
        try (SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port)))
        {
            return done(new NioPingPong(channel, length, blocking));
        }
    }

    private static String done(final PingPong responder)
    {
        return "DONE " + responder.respond(PeerMain::go);
    }

    private static void go()
    {
        System.out.println("GO");
        System.out.flush();
    }

    private void close()
    {
        CloseHelper.closeAll(endpoints.values());
        CloseHelper.close(raw);
        CloseHelper.close(ucx);
    }
}
