package org.viadsm.via.provider.tcp;

import java.io.IOException;
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
import org.viadsm.via.engine.PeerNic;
import org.viadsm.via.engine.ProviderSupport;
import org.viadsm.via.engine.SparseMemory;

/**
 * A NIC that listens on a TCP port and reaches its peers over one connection per VI. Its shared area and memory
 * are private to this process (any direct buffer may be registered); peers reach them only through the engine
 * thread, which performs their operations on this NIC's behalf.
 */
final class TcpNic extends EngineNic
{
    private static final int BACKLOG = 128;

    private final TcpEngine engine;
    private final TcpConnector connector;
    private final ConnectionSetup setup;

    private TcpNic(final String address, final NicArea area, final NicGeometry geometry,
        final NicContext context, final ServerSocketChannel server) throws IOException
    {
        super(address, area, ProviderSupport.attributes(address, geometry, context.maxTransferSize()), context,
            NicConfiguration.TCP_WAIT_SPIN_NS_DEFAULT);
        this.engine = new TcpEngine(this, server);
        final RequestTable table = new RequestTable(attributes().maxVis(), context.tcpConnectRetryNs());
        this.setup = new ConnectionSetup(this, engine, table);
        this.connector = new TcpConnector(this, engine, table, setup);
    }

    static TcpNic open(final String address, final NicContext context)
    {
        final TcpAddress parsed = TcpAddress.parse(address);
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
            final TcpNic nic = new TcpNic(bound, area, geometry, context, server);
            nic.engine.start();
            return nic;
        }
        catch (final BindException ex)
        {
            CloseHelper.quietClose(server);
            throw new ViaException(ViaError.ERROR_RESOURCE, "address in use: cannot listen at " + address, ex);
        }
        catch (final IOException ex)
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
    protected Connector connector()
    {
        return connector;
    }

    @Override
    protected int progress(final boolean spinning)
    {
        return engine.progress(spinning);
    }

    @Override
    protected boolean block(final long timeoutNs)
    {
        return engine.block(timeoutNs);
    }

    @Override
    protected void onWaitEnd()
    {
        engine.onBlockedWaitEnd();
    }

    @Override
    protected PeerNic resolvePeer(final String address)
    {
        throw new ViaException(ViaError.NOT_REACHABLE, "a tcp NIC reaches " + address + " through connections only");
    }

    @Override
    protected void onClose()
    {
        engine.close();
    }
}
