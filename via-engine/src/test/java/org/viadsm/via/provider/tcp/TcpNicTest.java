package org.viadsm.via.provider.tcp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.NicProviders;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class TcpNicTest
{
    private static final long T = TimeUnit.SECONDS.toNanos(10);
    private static final long SHORT_NS = TimeUnit.MILLISECONDS.toNanos(200);

    private static int closedPort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    private static Vi vi(final Nic nic)
    {
        return nic.createVi(new ViAttributes().ptag(nic.createPtag()), null, null);
    }

    @Test
    void shouldBeFoundByScheme()
    {
        assertTrue(NicProviders.provider("tcp:localhost:1") instanceof TcpNicProvider);
    }

    @Test
    void shouldReportThePortItBoundForPortZero()
    {
        try (Nic nic = Nic.open("tcp:127.0.0.1:0"))
        {
            final String address = nic.address();
            assertTrue(address.startsWith("tcp:127.0.0.1:"), address);
            final int port = Integer.parseInt(address.substring("tcp:127.0.0.1:".length()));
            assertNotEquals(0, port);
            assertEquals(address, nic.attributes().name());
            final ViaException inUse = assertThrows(ViaException.class, () -> Nic.open(address));
            assertEquals(ViaError.ERROR_RESOURCE, inUse.error());
            assertTrue(inUse.getMessage().contains(address), inUse.getMessage());
        }
    }

    @Test
    void shouldRefuseMalformedAddresses()
    {
        for (final String address : new String[] {
            "tcp:", "tcp:127.0.0.1", "tcp::80", "tcp:127.0.0.1:65536", "tcp:127.0.0.1:-1", "tcp:127.0.0.1:x",
            "tcp:::1:80", "tcp:[::1:80", "tcp:a/b:80"})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Nic.open(address));
            assertTrue(ex.getMessage().contains(address), ex.getMessage());
        }
    }

    @Test
    void shouldTimeOutConnectingToAClosedPortWithNotReachable() throws IOException
    {
        final String nobody = "tcp:127.0.0.1:" + closedPort();
        try (Nic nic = Nic.open("tcp:127.0.0.1:0"))
        {
            final Vi client = vi(nic);
            final ViaException ex = assertThrows(ViaException.class, () -> client.connectRequest(nobody, 1, SHORT_NS));
            assertEquals(ViaError.NOT_REACHABLE, ex.error());
            assertTrue(ex.getMessage().contains("no NIC listens at " + nobody), ex.getMessage());
            assertEquals(ViState.IDLE, client.state());

            final Vi peer = vi(nic);
            peer.connectPeerRequest(nobody, 1, SHORT_NS);
            final ViaException late = assertThrows(ViaException.class, () -> peer.connectPeerWait(T));
            assertEquals(ViaError.NOT_REACHABLE, late.error());
            assertTrue(late.getMessage().contains(nobody), late.getMessage());
            assertEquals(ViState.IDLE, peer.state());

            final ViaException malformed = assertThrows(ViaException.class,
                () -> vi(nic).connectPeerRequest("tcp:127.0.0.1", 1, T));
            assertEquals(ViaError.NOT_REACHABLE, malformed.error());
        }
    }

    /**
     * A request whose connection is not up when its time runs out (on a busy machine the engine thread may not even
     * have opened it) was not refused: it times out, and does not claim that nobody listens. Here the listener's
     * accept queue is full, so the kernel drops the request's connection attempts without refusing them.
     */
    @Test
    void shouldTimeOutARequestWhoseConnectionIsNotUpWithTimeout() throws IOException
    {
        final List<SocketChannel> fillers = new ArrayList<>();
        try (ServerSocketChannel full = ServerSocketChannel.open();
            Nic nic = Nic.open("tcp:127.0.0.1:0"))
        {
            full.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            for (int i = 0; i < 4; i++)
            {
                final SocketChannel filler = SocketChannel.open();
                fillers.add(filler);
                filler.configureBlocking(false);
                filler.connect(full.getLocalAddress());
            }
            final String unanswered = "tcp:127.0.0.1:" + ((InetSocketAddress)full.getLocalAddress()).getPort();
            final Vi client = vi(nic);
            final ViaException ex =
                assertThrows(ViaException.class, () -> client.connectRequest(unanswered, 1, SHORT_NS));
            assertEquals(ViaError.TIMEOUT, ex.error(), ex.getMessage());
            assertTrue(ex.getMessage().contains("timed out before it reached " + unanswered), ex.getMessage());
            assertEquals(ViState.IDLE, client.state());

            final Vi peer = vi(nic);
            peer.connectPeerRequest(unanswered, 1, SHORT_NS);
            final ViaException late = assertThrows(ViaException.class, () -> peer.connectPeerWait(T));
            assertEquals(ViaError.TIMEOUT, late.error(), late.getMessage());
            assertTrue(late.getMessage().contains("timed out before it reached " + unanswered), late.getMessage());
            assertEquals(ViState.IDLE, peer.state());
        }
        finally
        {
            for (final SocketChannel filler : fillers)
            {
                filler.close();
            }
        }
    }

    @Test
    void shouldRetryAPeerRequestUntilThePeerListens() throws Exception
    {
        final String later = "tcp:127.0.0.1:" + closedPort();
        try (Nic early = Nic.open("tcp:127.0.0.1:0"))
        {
            final Vi waiting = vi(early);
            waiting.connectPeerRequest(later, 12, T);
            Thread.sleep(100);
            try (Nic late = Nic.open(later))
            {
                final Vi arriving = vi(late);
                arriving.connectPeerRequest(early.address(), 12, T);
                final CompletableFuture<Void> other = CompletableFuture.runAsync(() -> arriving.connectPeerWait(T));
                waiting.connectPeerWait(T);
                other.get(20, TimeUnit.SECONDS);
                assertEquals(ViState.CONNECTED, waiting.state());
                assertEquals(ViState.CONNECTED, arriving.state());
                assertEquals(later, waiting.remoteAddress());
                assertEquals(ReliabilityLevel.RELIABLE_RECEPTION, arriving.remoteAttributes().reliabilityLevel());
            }
        }
    }

    @Test
    void shouldMatchPeersNamingEachOtherByHostName() throws Exception
    {
        final String ip = InetAddress.getByName("localhost").getHostAddress();
        final String host = ip.indexOf(':') >= 0 ? '[' + ip + ']' : ip;
        try (Nic a = Nic.open("tcp:localhost:0"); Nic b = Nic.open("tcp:" + host + ":0"))
        {
            final String bByName = "tcp:localhost:" + b.address().substring(b.address().lastIndexOf(':') + 1);
            final String aByIp = "tcp:" + host + ":" + a.address().substring(a.address().lastIndexOf(':') + 1);
            final Vi x = vi(a);
            final Vi y = vi(b);
            x.connectPeerRequest(bByName, 3, T);
            y.connectPeerRequest(aByIp, 3, T);
            x.connectPeerWait(T);
            y.connectPeerWait(T);
            assertEquals(ViState.CONNECTED, x.state());
            assertEquals(ViState.CONNECTED, y.state());
        }
    }

    @Test
    void shouldMoveTransfersLargerThanTheSocketBuffers()
    {
        final int length = 4 << 20;
        try (Nic a = Nic.open("tcp:127.0.0.1:0"); Nic b = Nic.open("tcp:127.0.0.1:0"))
        {
            final ProtectionTag tagA = a.createPtag();
            final ProtectionTag tagB = b.createPtag();
            final MemoryRegion local = a.registerMemory(a.allocateMemory(2 * length), MemoryAttributes.localOnly(tagA));
            final MemoryRegion remote = b.registerMemory(b.allocateMemory(2 * length),
                MemoryAttributes.remoteAccess(tagB));
            final Vi x = a.createVi(new ViAttributes().ptag(tagA).maxTransferSize(length), null, null);
            final Vi y = b.createVi(new ViAttributes().ptag(tagB).maxTransferSize(length), null, null);
            x.connectPeerRequest(b.address(), 4, T);
            y.connectPeerRequest(a.address(), 4, T);
            x.connectPeerWait(T);
            y.connectPeerWait(T);
            for (int i = 0; i < length; i += 8)
            {
                local.buffer().putLong(i, i * 31L + 7);
            }
            final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(remote, length, length);
            y.postRecv(recv);
            final Descriptor write = Descriptor.allocate(1).reset().rdmaWrite(remote.handle(), 0)
                .addSegment(local, 0, length);
            final Descriptor send = Descriptor.allocate(1).reset().send().addSegment(local, 0, length);
            final Descriptor read = Descriptor.allocate(1).reset().rdmaRead(remote.handle(), 0)
                .addSegment(local, length, length);
            x.postSend(write);
            x.postSend(send);
            x.postSend(read.queueFence(true));
            for (final Descriptor d : new Descriptor[] {write, send, read})
            {
                assertSame(d, x.sendWait(T));
                assertEquals(length, d.length(), d.toString());
                assertFalse(d.isError(), d.toString());
            }
            assertSame(recv, y.recvWait(T));
            assertEquals(length, recv.length());
            for (int i = 0; i < length; i += 8)
            {
                assertEquals(i * 31L + 7, remote.buffer().getLong(i));
                assertEquals(i * 31L + 7, remote.buffer().getLong(length + i));
                assertEquals(i * 31L + 7, local.buffer().getLong(length + i));
            }
        }
    }

    @Test
    void shouldPerformAVisOperationsAtTheTargetInPostingOrderWithoutAFence()
    {
        try (Nic a = Nic.open("tcp:127.0.0.1:0"); Nic b = Nic.open("tcp:127.0.0.1:0"))
        {
            // what lets a consumer post a read right behind an atomic without a queue fence
            assertTrue(a.attributes().orderedTargetAccess());
            final ProtectionTag tagA = a.createPtag();
            final ProtectionTag tagB = b.createPtag();
            final MemoryRegion local = a.registerMemory(a.allocateMemory(4096), MemoryAttributes.localOnly(tagA));
            final MemoryRegion remote = b.registerMemory(b.allocateMemory(4096), MemoryAttributes.remoteAccess(tagB));
            final Vi x = a.createVi(new ViAttributes().ptag(tagA), null, null);
            final Vi y = b.createVi(new ViAttributes().ptag(tagB), null, null);
            x.connectPeerRequest(b.address(), 4, T);
            y.connectPeerRequest(a.address(), 4, T);
            x.connectPeerWait(T);
            y.connectPeerWait(T);
            final Descriptor atomic = Descriptor.allocate(1);
            final Descriptor read = Descriptor.allocate(1);
            for (long round = 0; round < 200; round++)
            {
                x.postSend(atomic.reset().fetchAndAdd(remote.handle(), 0, 1).addSegment(local, 0, 8));
                x.postSend(read.reset().rdmaRead(remote.handle(), 0).addSegment(local, 8, 8));
                assertSame(atomic, x.sendWait(T));
                assertSame(read, x.sendWait(T));
                assertFalse(atomic.isError() || read.isError(), atomic + " " + read);
                assertEquals(2 * round, local.buffer().getLong(0));
                assertEquals(2 * round + 1, local.buffer().getLong(8));
                x.postSend(atomic.reset().compareAndSwap(remote.handle(), 0, 2 * round + 1, 2 * round + 2)
                    .addSegment(local, 0, 8));
                x.postSend(read.reset().rdmaRead(remote.handle(), 0).addSegment(local, 8, 8));
                assertSame(atomic, x.sendWait(T));
                assertSame(read, x.sendWait(T));
                assertFalse(atomic.isError() || read.isError(), atomic + " " + read);
                assertEquals(2 * round + 1, local.buffer().getLong(0));
                assertEquals(2 * round + 2, local.buffer().getLong(8));
            }
            assertEquals(400, remote.buffer().getLong(0));
        }
    }
}
