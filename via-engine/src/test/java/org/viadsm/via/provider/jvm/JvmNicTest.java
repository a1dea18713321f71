package org.viadsm.via.provider.jvm;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.NicProviders;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class JvmNicTest
{
    @Test
    void shouldBeFoundByScheme()
    {
        assertTrue(NicProviders.provider("jvm:x") instanceof JvmNicProvider);
    }

    @Test
    void shouldRegisterAnyDirectBufferAndServeRdmaOnIt()
    {
        final long pid = ProcessHandle.current().pid();
        try (Nic a = Nic.open("jvm:jvmtest-a" + pid); Nic b = Nic.open("jvm:jvmtest-b" + pid))
        {
            final ProtectionTag ptagA = a.createPtag();
            final ProtectionTag ptagB = b.createPtag();
            final ByteBuffer plain = ByteBuffer.allocateDirect(4096);
            final MemoryRegion target = b.registerMemory(plain, MemoryAttributes.remoteAccess(ptagB));
            final MemoryRegion local =
                a.registerMemory(ByteBuffer.allocateDirect(64), MemoryAttributes.localOnly(ptagA));
            final Vi x = a.createVi(new ViAttributes().ptag(ptagA), null, null);
            final Vi y = b.createVi(new ViAttributes().ptag(ptagB), null, null);
            x.connectPeerRequest(b.address(), 1, 1_000_000_000L);
            y.connectPeerRequest(a.address(), 1, 1_000_000_000L);
            x.connectPeerWait(5_000_000_000L);
            y.connectPeerWait(5_000_000_000L);
            local.buffer().putLong(0, 0xABCDEFL);
            x.postSend(Descriptor.allocate(1).reset().rdmaWrite(target.handle(), 8).addSegment(local, 0, 8));
            assertEquals(DescriptorStatus.DONE | DescriptorStatus.OP_RDMA_WRITE, x.sendDone().status());
            assertEquals(0xABCDEFL, plain.order(java.nio.ByteOrder.nativeOrder()).getLong(8));
            assertEquals(ReliabilityLevel.RELIABLE_RECEPTION, y.remoteAttributes().reliabilityLevel());
        }
    }
}
