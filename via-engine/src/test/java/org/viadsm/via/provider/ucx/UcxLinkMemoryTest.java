package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.provider.Providers;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A link's native memory (its send slots, its operations' parameters) belongs to its NIC and is freed when the NIC
 * closes, after the worker whose requests may point into it: a link released before, as well.
 */
@Timeout(60)
class UcxLinkMemoryTest
{
    @BeforeAll
    static void ucx()
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
    }

    @Test
    void shouldFreeTheLinksNativeMemoryWhenTheNicCloses()
    {
        final Arena nicArena;
        final Arena releasedLinkArena;
        try (Nic one = Nic.open("ucx:127.0.0.1:0", new NicContext());
             Nic other = Nic.open("ucx:127.0.0.1:0", new NicContext()))
        {
            final UcxTransport transport = (UcxTransport)((EngineNic)one).transport();
            nicArena = transport.arena();
            final Vi released = connect(one, other);
            releasedLinkArena = linkOf(transport, released).arena();
            released.close();
            final Vi open = connect(one, other);
            assertSame(nicArena, releasedLinkArena, "a link's memory comes from its NIC's arena");
            assertSame(nicArena, linkOf(transport, open).arena(), "a link's memory comes from its NIC's arena");
            assertTrue(nicArena.scope().isAlive(), "freed while the NIC is open");
        }
        assertFalse(nicArena.scope().isAlive(), "the NIC's memory, its links' included, freed by close()");
    }

    private static UcxLink linkOf(final UcxTransport transport, final Vi vi)
    {
        final UcxLink link = transport.link(vi.id());
        assertNotNull(link, "no link for connected VI " + vi.id());
        return link;
    }

    private static Vi connect(final Nic one, final Nic other)
    {
        final Vi mine = one.createVi(new ViAttributes().ptag(one.createPtag()), null, null);
        final Vi theirs = other.createVi(new ViAttributes().ptag(other.createPtag()), null, null);
        Providers.connect(mine, other.address(), theirs, one.address());
        return mine;
    }
}
