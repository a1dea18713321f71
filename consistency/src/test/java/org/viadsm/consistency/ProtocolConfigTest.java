package org.viadsm.consistency;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProtocolConfigTest
{
    @Test
    void shouldRefuseConfigurationsWhoseControlRegionWouldNotFit()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new ProtocolConfig().nodeCount(256).maxSemaphores(1 << 20).conclude());
        assertTrue(ex.getMessage().contains("control region"), ex.getMessage());
    }

    @Test
    void shouldNameTheFirstBadValue()
    {
        assertEquals("pageSize must be a power of two in [512, 1048576]: 3000",
            assertThrows(IllegalArgumentException.class, () -> new ProtocolConfig().pageSize(3000).conclude())
                .getMessage());
        assertEquals("nodeCount must be in [1, 256]: 0",
            assertThrows(IllegalArgumentException.class, () -> new ProtocolConfig().nodeCount(0).conclude())
                .getMessage());
    }

    @Test
    void shouldLayOutTheLargestAcceptedClusterWithoutOverflow()
    {
        final ProtocolConfig config = new ProtocolConfig().nodeCount(256).maxLocks(1 << 16).conclude();
        final ControlRegionLayout layout = new ControlRegionLayout(config);
        assertTrue(layout.length() > 0 && layout.length() <= ControlRegionLayout.lengthOf(config));
        assertTrue(layout.logScratch() > layout.log() && layout.log() > layout.allocationScratch());
    }

    @Test
    void shouldFreezeOnceConcluded()
    {
        final ProtocolConfig config = new ProtocolConfig().nodeCount(2).conclude();
        assertTrue(config.isConcluded());
        assertEquals(config, config.conclude());
        assertEquals("the protocol configuration is concluded and can no longer change: pageSize",
            assertThrows(IllegalStateException.class, () -> config.pageSize(8192)).getMessage());
        assertEquals(4096, config.pageSize());
    }
}
