package org.viadsm.dsm;

import java.nio.ByteBuffer;

import org.agrona.CloseHelper;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.node.HlrcNode;
import org.viadsm.dsm.rendezvous.Rendezvous;
import org.viadsm.via.Nic;
import org.viadsm.via.ViaException;
import org.viadsm.via.internal.AgronaAccess;
import org.viadsm.via.memory.MemoryRegion;

/**
 * How a node joins its cluster, for {@link Dsm#join(DsmContext)}: concludes the context, opens the NIC, gathers
 * every node's address at the rendezvous if there is one, connects to every other node, composes the protocol's
 * node and passes the joining barrier. A failure at any step closes what was opened.
 */
final class NodeJoin
{
    /** The rendezvous topic under which nodes publish their NIC addresses. */
    private static final String ADDRESSES_TOPIC = "addresses";

    private NodeJoin()
    {
    }

    static Dsm join(final DsmContext context)
    {
        AgronaAccess.check();
        context.conclude();
        final Nic nic;
        try
        {
            nic = Nic.open(context.localAddress(), context.nicContext());
        }
        catch (final ViaException ex)
        {
            throw new DsmException(context.nodeId(), "cannot open NIC " + context.localAddress() + ": " +
                ex.getMessage(), ex);
        }
        final Rendezvous rendezvous = context.rendezvous();
        try
        {
            if (null != rendezvous)
            {
                context.joinedAddresses(
                    rendezvous.allGather(ADDRESSES_TOPIC, nic.address(), context.timeouts().connectNs()));
            }
            final Counters counters = new Counters();
            final ViaProtocolPort port = new ViaProtocolPort(nic, context.nodeId(), context.nodeCount(), counters);
            final ByteBuffer control = nic.allocateMemory(HlrcNode.controlRegionLength(context.protocol()));
            final MemoryRegion controlRegion = port.regions().add(HlrcNode.CONTROL_REGION, control);
            ClusterConnector.connect(port, context, controlRegion.handle());
            final HlrcNode node = new HlrcNode(port, context.protocol(), counters, context.timeouts().syncNs());
            final Dsm dsm = new Dsm(context, port, node, counters);
            passJoiningBarrier(dsm);
            dsm.resetStats();
            return dsm;
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(nic);
            if (ex instanceof DsmException || ex instanceof IllegalArgumentException)
            {
                throw ex;
            }
            throw new DsmException(context.nodeId(), "cannot join the cluster: " + ex.getMessage(), ex);
        }
        finally
        {
            if (null != rendezvous)
            {
                // every node that passed the joining barrier has read every address; one that failed needs none
                rendezvous.retract(ADDRESSES_TOPIC);
            }
        }
    }

    /** Every node's first barrier: once passed, every node is connected and every address was read. */
    private static void passJoiningBarrier(final Dsm dsm)
    {
        dsm.enter();
        try
        {
            dsm.node().syncBarrier();
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("joining", ex);
        }
        finally
        {
            dsm.exit();
        }
    }
}
