package org.viadsm.dsm;

import org.junit.jupiter.api.Test;
import org.viadsm.consistency.home.FirstTouchHomePolicy;
import org.viadsm.consistency.home.HomePolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PlacementTest
{
    @Test
    void shouldSplitPagesIntoContiguousBlocks()
    {
        final HomePolicy policy = Placement.block().policy(10, 512, 5120, 4);
        final int[] expected = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3};
        for (int page = 0; page < 10; page++)
        {
            assertEquals(expected[page], policy.home(page), "page " + page);
        }
    }

    @Test
    void shouldDealPagesCyclically()
    {
        final HomePolicy policy = Placement.cyclic().policy(10, 512, 5120, 3);
        assertEquals(0, policy.home(0));
        assertEquals(1, policy.home(4));
        assertEquals(2, policy.home(8));
    }

    @Test
    void shouldStartFirstTouchUndecided()
    {
        final FirstTouchHomePolicy policy = (FirstTouchHomePolicy)Placement.firstTouch().policy(4, 512, 2048, 2);
        assertEquals(HomePolicy.UNDECIDED, policy.home(3));
        policy.decide(3, 1);
        assertEquals(1, policy.home(3));
        assertEquals(1, FirstTouchHomePolicy.directoryNode(3, 2));
        assertEquals(8, FirstTouchHomePolicy.directoryOffset(3, 2));
        assertEquals(16, FirstTouchHomePolicy.directoryLength(4, 2));
    }

    @Test
    void shouldPlaceExplicitlyAndCheckHomes()
    {
        final HomePolicy policy = Placement.explicit(page -> page % 2 == 0 ? 1 : 0).policy(4, 512, 2048, 2);
        assertEquals(1, policy.home(0));
        assertEquals(0, policy.home(1));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> Placement.onNode(5).policy(2, 512, 1024, 4));
        assertEquals("placement node:5 puts page 0 on node 5, but nodes are 0..3", ex.getMessage());
    }

    @Test
    void shouldPlaceEachPageAtTheOwnerOfItsMiddleElement()
    {
        // 10 elements per page, 35 elements: node 0 owns [0, 14), node 1 owns [14, 35).
        final HomePolicy policy = Placement.byElement(element -> element < 14 ? 0 : 1).policy(4, 10, 35, 2);
        assertEquals(0, policy.home(0), "middle element 5");
        assertEquals(1, policy.home(1), "middle element 15: the page's majority is node 1's");
        assertEquals(1, policy.home(2));
        assertEquals(1, policy.home(3), "the last page's middle is past the end: its last element decides");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> Placement.byElement(element -> element).policy(3, 10, 30, 2));
        assertEquals("placement by-element puts page 0 on node 5, but nodes are 0..1", ex.getMessage());
    }

    @Test
    void shouldParseNamesAndRejectUnknownOnes()
    {
        assertEquals("block", Placement.parse("block").toString());
        assertEquals("cyclic", Placement.parse(" Cyclic ").toString());
        assertEquals("first-touch", Placement.parse("first-touch").toString());
        assertEquals("node:2", Placement.parse("node:2").toString());
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> Placement.parse("random"));
        assertEquals("unknown placement 'random'; expected block, cyclic, first-touch or node:<n>", ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Placement.parse("node:x"));
    }

    @Test
    void shouldFingerprintEqualPlacementsEquallyAndDifferentOnesDifferently()
    {
        assertEquals(Placement.block().fingerprint(100, 512, 51200, 4),
            Placement.block().fingerprint(100, 512, 51200, 4));
        assertEquals(Placement.onNode(0).fingerprint(100, 512, 51200, 4),
            Placement.explicit(page -> 0).fingerprint(100, 512, 51200, 4));
        assertEquals(Placement.onNode(1).fingerprint(100, 512, 51200, 4),
            Placement.byElement(element -> 1).fingerprint(100, 512, 51200, 4));
        assertNotEquals(Placement.block().fingerprint(100, 512, 51200, 4),
            Placement.cyclic().fingerprint(100, 512, 51200, 4));
        assertNotEquals(Placement.block().fingerprint(100, 512, 51200, 4),
            Placement.firstTouch().fingerprint(100, 512, 51200, 4));
    }
}
