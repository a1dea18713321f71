package org.viadsm.via.provider.tcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.NicConfiguration;
import org.viadsm.via.NicContext;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.engine.Connector;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.NicArea;
import org.viadsm.via.engine.NicGeometry;
import org.viadsm.via.engine.NicTransport;
import org.viadsm.via.engine.PeerNic;
import org.viadsm.via.engine.ProviderSupport;
import org.viadsm.via.engine.SparseMemory;
import org.viadsm.via.internal.HostPortAddress;

/**
 * The transport of a tcp NIC: it listens on a TCP port and reaches its peers over one connection per VI. Its shared
 * area and memory are private to this process (any direct buffer may be registered); peers reach them only through
 * the {@link TcpEngine}, which performs their operations on this NIC's behalf, and VIs connect through the
 * {@link TcpConnector}'s handshake.
 */
final class TcpTransport implements NicTransport
{
    private static final int BACKLOG = 128;

    private final TcpEngine engine;
    private final TcpConnector connector;
    private final ConnectionSetup setup;

    private TcpTransport(final EngineNic nic, final ServerSocketChannel server)
    {
        try
        {
            this.engine = new TcpEngine(nic, this, server);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final RequestTable table = new RequestTable(nic.attributes().maxVis(), nic.context().tcp().connectRetryNs());
        this.setup = new ConnectionSetup(nic, engine, table);
        this.connector = new TcpConnector(nic, engine, table, setup);
    }

    static EngineNic open(final String address, final NicContext context)
    {
        final HostPortAddress parsed = TcpAddress.parse(address);
        if (ByteOrder.LITTLE_ENDIAN != ByteOrder.nativeOrder())
        {
            throw new ViaException(ViaError.ERROR_NOT_SUPPORTED, "the tcp provider needs a little-endian platform");
        }
        final NicGeometry geometry = ProviderSupport.geometry(context);
        ServerSocketChannel server = null;
        try
        {
            server = ServerSocketChannel.open();
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(parsed.socketAddress(), BACKLOG);
            final String bound = parsed.withPort(((InetSocketAddress)server.getLocalAddress()).getPort());
            final NicArea area = NicArea.create(
                new UnsafeBuffer(SparseMemory.mapUnlinked(context.shmDirectory(), geometry.areaLength())),
                geometry, ProviderSupport.newNicId(), ProcessHandle.current().pid(), 0);
            final ServerSocketChannel listener = server;
            // one stream per VI, whose requests the target performs one after the other (TargetSide)
            final EngineNic nic = new EngineNic(bound, area,
                ProviderSupport.attributes(bound, geometry, context.maxTransferSize(), true), context,
                NicConfiguration.TCP_WAIT_SPIN_NS_DEFAULT, engineNic -> new TcpTransport(engineNic, listener));
            ((TcpTransport)nic.transport()).engine.start();
            return nic;
        }
        catch (final BindException ex)
        {
            CloseHelper.quietClose(server);
            throw new ViaException(ViaError.ERROR_RESOURCE, "address in use: cannot listen at " + address, ex);
        }
        catch (final IOException | UncheckedIOException ex)
        {
            CloseHelper.quietClose(server);
            throw new ViaException(ViaError.CATASTROPHIC, "cannot open a tcp NIC at " + address, ex);
        }
    }

    ConnectionSetup connectionSetup()
    {
        return setup;
    }

    @Override
    public Connector connector()
    {
        return connector;
    }

    @Override
    public int progress(final boolean spinning)
    {
        return engine.progress(spinning);
    }

    @Override
    public boolean block(final long timeoutNs)
    {
        return engine.block(timeoutNs);
    }

    @Override
    public void onWaitEnd()
    {
        engine.onBlockedWaitEnd();
    }

    @Override
    public PeerNic resolvePeer(final String address)
    {
        throw new ViaException(ViaError.NOT_REACHABLE, "a tcp NIC reaches " + address + " through connections only");
    }

    @Override
    public void close()
    {
        engine.close();
    }
}
