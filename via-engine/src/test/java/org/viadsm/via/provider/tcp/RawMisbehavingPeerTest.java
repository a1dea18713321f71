package org.viadsm.via.provider.tcp;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.engine.TargetAccess;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.viadsm.via.provider.tcp.FrameLayout.HEADER_LENGTH;

/**
 * A peer that skips its own NIC's checks (raw frames on the socket) attempts RDMA outside its rights: requests
 * against memory of another protection tag, outside a region, of a deregistered or never-registered region,
 * against a region's access rights, and misaligned atomics. The target's own checks refuse every one with a NAK
 * naming the outcome, the connection ends, and canary bytes prove that nothing of the target's memory changed.
 */
@Timeout(120)
class RawMisbehavingPeerTest
{
    private static final long T = TimeUnit.SECONDS.toNanos(20);
    private static final byte CANARY = (byte)0xCA;
    private static final int MEMORY_LENGTH = 32 * 1024;
    private static final int TARGET_OFFSET = 8192;
    private static final int TARGET_LENGTH = 4096;

    private final ExecutorService acceptor = Executors.newSingleThreadExecutor();
    private Nic victim;
    private ProtectionTag ptag;
    private ByteBuffer memory;
    private MemoryRegion target;
    private MemoryRegion otherPtag;
    private MemoryRegion readOnly;
    private MemoryRegion writeOnly;
    private int deregistered;

    @BeforeEach
    void open()
    {
        victim = Nic.open("tcp:127.0.0.1:0");
        ptag = victim.createPtag();
        memory = victim.allocateMemory(MEMORY_LENGTH);
        for (int i = 0; i < MEMORY_LENGTH; i++)
        {
            memory.put(i, CANARY);
        }
        target = register(MemoryAttributes.remoteAccess(ptag));
        otherPtag = register(MemoryAttributes.remoteAccess(victim.createPtag()));
        readOnly = register(new MemoryAttributes(ptag, false, true));
        writeOnly = register(new MemoryAttributes(ptag, true, false));
        final MemoryRegion gone = register(MemoryAttributes.remoteAccess(ptag));
        deregistered = gone.handle();
        victim.deregisterMemory(gone);
    }

    @AfterEach
    void close()
    {
        acceptor.shutdownNow();
        victim.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"write", "read", "compare-and-swap", "fetch-and-add"})
    void shouldRefuseEveryRequestOutsideThePeersRightsAtTheTarget(final String operation)
    {
        final boolean writes = !"read".equals(operation);
        final int protection = writes ? TargetAccess.RDMA_WRITE_PROTECTION : TargetAccess.RDMA_READ_PROTECTION;
        attempt(operation, otherPtag.handle(), 0, protection);
        attempt(operation, target.handle(), TARGET_LENGTH - 4, "write".equals(operation) ||
            "read".equals(operation) ? protection : -1);
        attempt(operation, target.handle(), TARGET_LENGTH, protection);
        attempt(operation, target.handle(), -8, protection);
        attempt(operation, target.handle(), 1L << 40, protection);
        attempt(operation, deregistered, 0, protection);
        attempt(operation, 0x7FFF_FFF0, 0, protection);
        attempt(operation, writes ? readOnly.handle() : writeOnly.handle(), 0, protection);
        for (int i = 0; i < MEMORY_LENGTH; i++)
        {
            assertEquals(CANARY, memory.get(i), "byte " + i);
        }
    }

    private MemoryRegion register(final MemoryAttributes attributes)
    {
        return victim.registerMemory(memory.duplicate().position(TARGET_OFFSET).limit(TARGET_OFFSET + TARGET_LENGTH)
            .slice(), attributes);
    }

    /** One request on a fresh connection; {@code outcome} -1 accepts any refusal (a malformed request). */
    private void attempt(final String operation, final int handle, final long address, final int outcome)
    {
        final String what = operation + " of handle 0x" + Integer.toHexString(handle) + " at " + address;
        try (RawPeer raw = new RawPeer(victim.address()))
        {
            final Vi vi = victim.createVi(new ViAttributes().ptag(ptag).reliabilityLevel(
                ReliabilityLevel.RELIABLE_RECEPTION).enableRdmaRead(true).enableRdmaWrite(true)
                .maxTransferSize(RawPeer.MAX_TRANSFER), null, null);
            final CompletableFuture<Void> accepted = CompletableFuture.runAsync(
                () -> victim.connectWait(31, T).accept(vi), acceptor);
            raw.connectAsClient(31, ReliabilityLevel.RELIABLE_RECEPTION);
            accepted.join();
            final int dst = raw.peerViId;
            switch (operation)
            {
                case "write":
                    raw.frame(FrameLayout.TYPE_RDMA_WRITE, 8, dst).dataLength(8).handle(handle).address(address);
                    raw.payload().setMemory(HEADER_LENGTH, 8, (byte)0x11);
                    raw.send(HEADER_LENGTH + 8);
                    break;
                case "read":
                    raw.frame(FrameLayout.TYPE_RDMA_READ, 0, dst).dataLength(8).handle(handle).address(address);
                    raw.send(HEADER_LENGTH);
                    break;
                case "compare-and-swap":
                    raw.frame(FrameLayout.TYPE_ATOMIC, 0, dst).dataLength(8).handle(handle).address(address)
                        .operand(0xCACACACACACACACAL).swap(0x1111111111111111L);
                    raw.send(HEADER_LENGTH);
                    break;
                default:
                    raw.frame(FrameLayout.TYPE_ATOMIC, 0, dst).flags(FrameLayout.FLAG_ATOMIC_ADD).dataLength(8)
                        .handle(handle).address(address).operand(1);
                    raw.send(HEADER_LENGTH);
                    break;
            }
            final FrameFlyweight answer = raw.read();
            assertEquals(FrameLayout.TYPE_NAK, answer.type(), what + ": " + answer);
            if (outcome >= 0 && ("write".equals(operation) || "read".equals(operation)))
            {
                assertEquals(outcome, answer.immediate(), what + ": " + answer);
            }
            else if (outcome >= 0)
            {
                // an atomic reads and writes: either check may refuse it first
                assertTrue(TargetAccess.RDMA_WRITE_PROTECTION == answer.immediate() ||
                    TargetAccess.RDMA_READ_PROTECTION == answer.immediate(), what + ": " + answer);
            }
            assertTrue(raw.isClosedByPeer(), what);
            assertEquals(ViState.ERROR, vi.state(), what);
            vi.close();
        }
        for (int i = 0; i < MEMORY_LENGTH; i++)
        {
            assertEquals(CANARY, memory.get(i), what + ": byte " + i);
        }
    }
}
