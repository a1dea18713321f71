package org.viadsm.via.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Taking send descriptors back: one that completed without an error is handed back by the done or wait call that
 * finds it, without entering the NIC; one that completed in error only by a call into the NIC, whose housekeeping
 * first hands the asynchronous error that came with it to the handler.
 */
@Timeout(30)
class SendWaitTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final String tag = Long.toString(ProcessHandle.current().pid(), 36) +
        Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private EngineNic x;
    private EngineNic y;
    private EngineVi vx;
    private MemoryRegion source;
    private MemoryRegion target;

    @BeforeEach
    void setUp()
    {
        x = (EngineNic)Nic.open("jvm:swx" + tag);
        y = (EngineNic)Nic.open("jvm:swy" + tag);
        x.errorHandler((error, vi, detail) -> errors.add(error + "@" + (null == vi ? -1 : vi.id())));
        vx = vi(x);
        final EngineVi vy = vi(y);
        vx.connectPeerRequest(y.address(), 2, TIMEOUT_NS);
        vy.connectPeerRequest(x.address(), 2, TIMEOUT_NS);
        vx.connectPeerWait(TIMEOUT_NS);
        vy.connectPeerWait(TIMEOUT_NS);
        source = x.registerMemory(x.allocateMemory(4096), MemoryAttributes.localOnly(vx.attributes().ptag()));
        target = y.registerMemory(y.allocateMemory(4096), MemoryAttributes.remoteAccess(vy.attributes().ptag()));
    }

    @AfterEach
    void tearDown()
    {
        x.close();
        y.close();
    }

    private static EngineVi vi(final Nic nic)
    {
        return (EngineVi)nic.createVi(new ViAttributes().ptag(nic.createPtag())
            .reliabilityLevel(ReliabilityLevel.RELIABLE_RECEPTION).enableRdmaWrite(true), null, null);
    }

    @Test
    void doneAndWaitShouldHandBackDescriptorsCompletedOnThePostingThreadInPostingOrder()
    {
        final Descriptor first = Descriptor.allocate(1).reset().rdmaWrite(target.handle(), 0)
            .addSegment(source, 0, 8);
        final Descriptor second = Descriptor.allocate(1).reset().rdmaWrite(target.handle(), 8)
            .addSegment(source, 8, 8);
        source.buffer().putLong(0, 11);
        source.buffer().putLong(8, 22);
        vx.postSend(first);
        vx.postSend(second);

        assertSame(first, vx.sendDone());
        assertSame(second, vx.sendWait(TIMEOUT_NS));
        assertNull(vx.sendDone());
        assertEquals(DescriptorStatus.DONE | DescriptorStatus.OP_RDMA_WRITE, first.status());
        assertEquals(DescriptorStatus.DONE | DescriptorStatus.OP_RDMA_WRITE, second.status());
        assertEquals(11, target.buffer().getLong(0));
        assertEquals(22, target.buffer().getLong(8));
        vx.postSend(first.reset().rdmaWrite(target.handle(), 0).addSegment(source, 8, 8));
        assertSame(first, vx.sendWait(TIMEOUT_NS), "a descriptor handed back may be posted again");
        assertEquals(22, target.buffer().getLong(0));
        assertEquals(List.of(), errors);
    }

    @Test
    void theWaitThatHandsBackAFailedDescriptorShouldFirstDeliverTheErrorThatCameWithIt()
    {
        final Descriptor write = Descriptor.allocate(1).reset().rdmaWrite(target.handle(), 4096 - 4)
            .addSegment(source, 0, 8);
        vx.postSend(write);
        assertEquals(List.of(), errors, "the error comes after the post's own housekeeping");

        assertSame(write, vx.sendWait(TIMEOUT_NS));
        assertEquals(DescriptorStatus.DONE | DescriptorStatus.OP_RDMA_WRITE | DescriptorStatus.RDMA_PROT_ERROR,
            write.status());
        assertEquals(List.of("RDMA_WRITE_PROTECTION@" + vx.id()), errors);
    }

    @Test
    void aDoneCallShouldRefuseAClosedNicEvenWithACompletedDescriptorQueued()
    {
        final Descriptor write = Descriptor.allocate(1).reset().rdmaWrite(target.handle(), 0)
            .addSegment(source, 0, 8);
        vx.postSend(write);
        x.close();

        assertThrows(IllegalStateException.class, vx::sendDone);
        assertThrows(IllegalStateException.class, () -> vx.sendWait(TIMEOUT_NS));
    }
}
