package org.viadsm.dsm;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.viadsm.consistency.ProtocolConfig;
import org.viadsm.dsm.wire.WireCodec;
import org.viadsm.dsm.wire.WireException;
import org.viadsm.via.Vi;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;

/**
 * Connects a node to every other node (one peer-to-peer VI connection per pair) and exchanges {@link Hello}s: each
 * node Sends its id, its protocol sizes and the handle of its control region, so that a node configured
 * differently is named before anything else happens.
 */
final class ClusterConnector
{
    private static final long HELLO_TAG = 0x48454C4C4FL;
    private static final int HELLO_LENGTH = 64;
    private static final long RETRY_NS = TimeUnit.MILLISECONDS.toNanos(2);

    private ClusterConnector()
    {
    }

    static void connect(final ViaProtocolPort port, final DsmContext context, final int controlHandle)
    {
        final int me = context.nodeId();
        final int nodes = context.nodeCount();
        final ByteBuffer memory = port.nic().allocateMemory(HELLO_LENGTH * (nodes + 1));
        final MemoryRegion hellos = port.nic().registerMemory(memory, MemoryAttributes.localOnly(port.ptag()));
        for (int node = 0; node < nodes; node++)
        {
            if (node != me)
            {
                final Descriptor receive = Descriptor.allocate(1).send()
                    .addSegment(hellos, HELLO_LENGTH * (node + 1L), HELLO_LENGTH).userData(HELLO_TAG);
                port.createVi(node, receive);
            }
        }
        final long deadlineNs = System.nanoTime() + context.timeouts().connectNs();
        for (int node = 0; node < nodes; node++)
        {
            if (node != me)
            {
                request(port, context, node, deadlineNs);
            }
        }
        for (int node = 0; node < nodes; node++)
        {
            if (node != me)
            {
                awaitConnection(port, context, node, deadlineNs);
            }
        }
        final WireCodec codec = AllocationRecord.codec();
        codec.encode(Hello.of(me, nodes, context.protocol(), controlHandle), hellos.buffer(), 0, HELLO_LENGTH);
        final Descriptor send = Descriptor.allocate(1);
        for (int node = 0; node < nodes; node++)
        {
            if (node != me)
            {
                send.reset().send().addSegment(hellos, 0, HELLO_LENGTH);
                port.vi(node).postSend(send);
                final Descriptor done = port.vi(node).sendWait(Math.max(1, deadlineNs - System.nanoTime()));
                if (null == done || done.isError())
                {
                    throw new DsmException(me, "could not send the hello to node " + node + " (" +
                        context.addresses().get(node) + ")" + (null == done ? ": timed out" : ": " + done));
                }
            }
        }
        for (int received = 0; received < nodes - 1; received++)
        {
            final int node = port.awaitTagged(HELLO_TAG, Math.max(1, deadlineNs - System.nanoTime()));
            if (node < 0)
            {
                throw new DsmException(me, "timed out waiting for the other nodes' hellos");
            }
            final Hello hello;
            try
            {
                hello = codec.decode(hellos.buffer(), HELLO_LENGTH * (node + 1), HELLO_LENGTH, Hello.class);
            }
            catch (final WireException ex)
            {
                throw new DsmException(me, "node " + node + " sent a malformed hello: " + ex.getMessage(), ex);
            }
            checkHello(hello, context.protocol(), me, node, nodes);
            port.regions().remoteHandle(0, node, hello.controlHandle());
        }
    }

    /** Nodes start at different moments: a request to a NIC not open yet is repeated until the deadline. */
    private static void request(
        final ViaProtocolPort port, final DsmContext context, final int node, final long deadlineNs)
    {
        final String address = context.addresses().get(node);
        while (true)
        {
            try
            {
                port.vi(node).connectPeerRequest(address, discriminator(context.nodeId(), node),
                    Math.max(1, deadlineNs - System.nanoTime()));
                return;
            }
            catch (final ViaException ex)
            {
                if (ViaError.NOT_REACHABLE != ex.error() || System.nanoTime() - deadlineNs >= 0)
                {
                    throw new DsmException(context.nodeId(), "could not reach node " + node + " at " + address +
                        " within " + TimeUnit.NANOSECONDS.toSeconds(context.timeouts().connectNs()) + " s: " +
                        ex.getMessage(), ex);
                }
                LockSupport.parkNanos(RETRY_NS);
            }
        }
    }

    private static void awaitConnection(
        final ViaProtocolPort port, final DsmContext context, final int node, final long deadlineNs)
    {
        final Vi vi = port.vi(node);
        try
        {
            vi.connectPeerWait(Math.max(1, deadlineNs - System.nanoTime()));
        }
        catch (final ViaException ex)
        {
            throw new DsmException(context.nodeId(), "could not connect to node " + node + " at " +
                context.addresses().get(node) + " within " +
                TimeUnit.NANOSECONDS.toSeconds(context.timeouts().connectNs()) + " s: " + ex.getMessage(), ex);
        }
    }

    private static long discriminator(final int a, final int b)
    {
        return (long)Math.min(a, b) << 16 | Math.max(a, b);
    }

    private static void checkHello(
        final Hello hello, final ProtocolConfig config, final int me, final int node, final int nodes)
    {
        if (node != hello.node())
        {
            throw new DsmException(me, "node " + node + " sent a hello as node " + hello.node());
        }
        check(me, node, "node count", nodes, hello.nodes());
        check(me, node, "pageSize", config.pageSize(), hello.pageSize());
        check(me, node, "maxLocks", config.maxLocks(), hello.maxLocks());
        check(me, node, "maxSemaphores", config.maxSemaphores(), hello.maxSemaphores());
        check(me, node, "notice log intervals", config.logIntervals(), hello.logIntervals());
        check(me, node, "notice log notices", config.logNotices(), hello.logNotices());
    }

    private static void check(final int me, final int node, final String what, final int mine, final int theirs)
    {
        if (mine != theirs)
        {
            throw new DsmException(me, "node " + node + " joined with " + what + "=" + theirs + " but node " + me +
                " with " + what + "=" + mine + "; every node must use the same settings");
        }
    }
}
