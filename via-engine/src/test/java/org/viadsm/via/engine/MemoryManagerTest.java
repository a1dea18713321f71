package org.viadsm.via.engine;

import java.nio.ByteBuffer;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;
import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.ViaException;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A registration-table entry whose handle generations are used up is retired, so that no handle is ever issued
 * twice: a VI's memo of the region it checked last, keyed on the handle, would otherwise pass the old region.
 */
class MemoryManagerTest
{
    private final String tag = Long.toString(ProcessHandle.current().pid(), 36) +
        Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);

    @Test
    void shouldNeverReuseAnEntryWhoseGenerationsAreUsedUp()
    {
        try (Nic nic = Nic.open("jvm:mm" + tag, new NicContext().maxRegions(2)))
        {
            final RegistrationTable table = ((EngineNic)nic).area().table();
            final ProtectionTag ptag = nic.createPtag();
            final MemoryAttributes attributes = MemoryAttributes.localOnly(ptag);
            final ByteBuffer memory = nic.allocateMemory(4096);

            final MemoryRegion first = nic.registerMemory(memory, attributes);
            final int spent = table.handleIndex(first.handle());
            nic.deregisterMemory(first);
            // as if the entry had issued its last generation (every generation bit set)
            ((EngineNic)nic).memory().lastGeneration(spent, table.handleGeneration(-1));

            for (int i = 0; i < 3; i++)
            {
                final MemoryRegion region = nic.registerMemory(memory, attributes);
                assertEquals(1 - spent, table.handleIndex(region.handle()), "registration " + i);
                nic.deregisterMemory(region);
            }
            final MemoryRegion held = nic.registerMemory(memory, attributes);
            final ViaException full = assertThrows(ViaException.class, () -> nic.registerMemory(memory, attributes));
            assertEquals("ERROR_RESOURCE: registration table of " + nic.address() + " is full: 2 regions, 1 of them " +
                "retired with every generation of their handles used", full.getMessage());
            nic.deregisterMemory(held);
        }
    }
}
