package org.viadsm.via.provider.ucx;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpParams;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucp.UcpWorkerParams;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViaException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A peer's packed worker address is walked before UCX unpacks it: this UCX's own addresses pass, and a truncated,
 * lengthened, re-versioned or re-valued one is refused by name (but for the format version, which alone is checked
 * in UCX's unified mode), as is every seeded mutation the walk cannot follow;
 * a NIC asked for a connection with such an address fails the accept with an error naming the requester, and the
 * process lives on.
 */
@Timeout(60)
class WorkerAddressCheckTest
{
    private static final long SEED = 0xADD2_E55L;
    private static final long T = TimeUnit.SECONDS.toNanos(10);

    private static byte[] own;

    @BeforeAll
    static void ownAddress()
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
        try (UcpContext context = new UcpContext(new UcpParams().requestRmaFeature().requestAmFeature()
            .requestAtomic64BitFeature().requestWakeupFeature());
             UcpWorker worker = context.newWorker(new UcpWorkerParams()))
        {
            final ByteBuffer packed = worker.getAddress();
            own = new byte[packed.remaining()];
            packed.get(own);
        }
    }

    @Test
    void shouldPassThisUcxsOwnAddress()
    {
        assertNull(WorkerAddressCheck.check(own), () -> "own address of " + own.length + " bytes");
    }

    @Test
    void shouldReadUcxsUnifiedModeSettingAsUcxDoes()
    {
        for (final String yes : new String[] {"y", "yes", " YES ", "on", "1"})
        {
            assertTrue(WorkerAddressCheck.isUnifiedMode(yes), yes);
        }
        for (final String no : new String[] {null, "", "n", "no", "off", "0"})
        {
            assertTrue(!WorkerAddressCheck.isUnifiedMode(no), String.valueOf(no));
        }
    }

    @Test
    void shouldRefuseEveryTruncationAndAnyTrailingByte()
    {
        for (int length = 0; length < own.length; length++)
        {
            final String fault = WorkerAddressCheck.check(Arrays.copyOf(own, length));
            assertNotNull(fault, "truncated to " + length + " bytes");
        }
        assertEquals("1 bytes follow its last device", WorkerAddressCheck.check(Arrays.copyOf(own, own.length + 1)));
    }

    @Test
    void shouldRefuseAFormatVersionUcxDoesNotPack()
    {
        for (int version = 2; version < 16; version++)
        {
            final byte[] address = own.clone();
            address[0] = (byte)(address[0] & 0xF0 | version);
            assertEquals("format version " + version + " is not one UCX packs (0 or 1)",
                WorkerAddressCheck.check(address));
        }
    }

    @Test
    void shouldRefuseAnInterfaceWithANegativeOverhead()
    {
        final int overheadAt = firstInterfaceAttributes();
        assumeTrue(overheadAt > 0, "this UCX packs version-2 attributes (fixed-point, never negative)");
        final byte[] address = own.clone();
        ByteBuffer.wrap(address).order(ByteOrder.nativeOrder()).putFloat(overheadAt, -1e-6f);
        final String fault = WorkerAddressCheck.check(address);
        assertNotNull(fault);
        assertTrue(fault.startsWith("device 0 interface 0 has overhead -1.0E-6, latency "), fault);
    }

    @Test
    void shouldRefuseOrFollowEverySeededMutationWithoutThrowing()
    {
        final Random random = new Random(SEED);
        int refused = 0;
        for (int i = 0; i < 20_000; i++)
        {
            final byte[] address = own.clone();
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--)
            {
                address[random.nextInt(address.length)] ^= (byte)(1 + random.nextInt(255));
            }
            refused += null == WorkerAddressCheck.check(address) ? 0 : 1;
        }
        assertTrue(refused > 0, "no mutation refused");
    }

    @Test
    void acceptShouldFailNamingARequesterWhoseAddressIsTruncated() throws Exception
    {
        assertAcceptRefuses(Arrays.copyOf(own, own.length - 3));
    }

    @Test
    void acceptShouldFailNamingARequesterWhoseInterfaceHasANegativeOverhead() throws Exception
    {
        // a negative overhead makes a transport's score negative, which UCX's lane selection asserts against
        final int overheadAt = firstInterfaceAttributes();
        assumeTrue(overheadAt > 0, "this UCX packs version-2 attributes (fixed-point, never negative)");
        final byte[] address = own.clone();
        ByteBuffer.wrap(address).order(ByteOrder.nativeOrder()).putFloat(overheadAt, -1.0f);
        assertAcceptRefuses(address);
    }

    /** A raw UCX peer asks a NIC for a connection, giving {@code address} as its worker's. */
    private static void assertAcceptRefuses(final byte[] address) throws Exception
    {
        final String requester = "ucx:127.0.0.1:1";
        try (Nic nic = Nic.open("ucx:127.0.0.1:0");
             UcpContext context = new UcpContext(new UcpParams().requestAmFeature().requestWakeupFeature());
             UcpWorker worker = context.newWorker(new UcpWorkerParams()))
        {
            final Vi server = nic.createVi(new ViAttributes().ptag(nic.createPtag())
                .reliabilityLevel(ReliabilityLevel.RELIABLE_DELIVERY), null, null);
            final CompletableFuture<Throwable> served = CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    nic.connectWait(78, 2 * T).accept(server);
                    return null;
                }
                catch (final RuntimeException ex)
                {
                    return ex;
                }
            });
            final UcpEndpoint endpoint = worker.newEndpoint(new UcpEndpointParams()
                .setSocketAddress(UcxAddress.parse(nic.address()).socketAddress()).setPeerErrorHandlingMode()
                .setErrorHandler((ep, status, message) -> { }));
            final Handshake request = new Handshake(Handshake.CLIENT_REQUEST, 0, -1, 1, 42, 78, 43, 4096, 2, 65536,
                0, 0, 16, 0, address, new byte[32], requester);
            final ByteBuffer header = ByteBuffer.allocateDirect(Handshake.HEADER_LENGTH);
            final ByteBuffer data = ByteBuffer.allocateDirect(request.dataLength());
            request.encodeHeader(new UnsafeBuffer(header));
            request.encodeData(new UnsafeBuffer(data));
            endpoint.sendAmNonBlocking(Handshake.AM_ID, UcxUtils.getAddress(header), header.capacity(),
                UcxUtils.getAddress(data), data.capacity(), 0, null);
            final long deadlineNs = System.nanoTime() + T;
            while (!served.isDone() && System.nanoTime() - deadlineNs < 0)
            {
                worker.progress();
            }
            final Throwable refused = served.get(T, TimeUnit.NANOSECONDS);
            assertTrue(refused instanceof ViaException, String.valueOf(refused));
            final String expected = "NOT_REACHABLE: VI " + server.id() + " cannot connect to the client at " +
                requester + ": the worker address of " + requester + " (" + address.length + " bytes) is malformed: " +
                WorkerAddressCheck.check(address);
            assertEquals(expected, refused.getMessage());
            endpoint.closeNonBlockingForce();
        }
    }

    /** Where the first interface's overhead lies in a version-1 address without a name or client id, else 0. */
    private static int firstInterfaceAttributes()
    {
        if (0 != (own[0] & 0x0F) || 0 != ((own[0] & 0xFF) >>> 4 & 0b101) || (own[9] & 0xFF) == 0xFF)
        {
            return 0;
        }
        // header 1, worker id 8, memory domain 1, device length 1 (+ paths, system device), device address, checksum 2
        int at = 9 + 1;
        final int deviceByte = own[at++] & 0xFF;
        at += ((deviceByte & 0x40) != 0 ? 1 : 0) + ((deviceByte & 0x20) != 0 ? 1 : 0) + (deviceByte & 0x1F);
        return (own[9] & 0x80) != 0 ? 0 : at + 2;
    }
}
