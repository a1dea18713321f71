package org.viadsm.consistency.home;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PlacementTest
{
    @Test
    void shouldSplitPagesIntoContiguousBlocks()
    {
        final HomePolicy policy = Placement.block().policy(10, 4);
        final int[] expected = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3};
        for (int page = 0; page < 10; page++)
        {
            assertEquals(expected[page], policy.home(page), "page " + page);
        }
    }

    @Test
    void shouldDealPagesCyclically()
    {
        final HomePolicy policy = Placement.cyclic().policy(10, 3);
        assertEquals(0, policy.home(0));
        assertEquals(1, policy.home(4));
        assertEquals(2, policy.home(8));
    }

    @Test
    void shouldStartFirstTouchUndecided()
    {
        final FirstTouchHomePolicy policy = (FirstTouchHomePolicy)Placement.firstTouch().policy(4, 2);
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
        final HomePolicy policy = Placement.explicit(page -> page % 2 == 0 ? 1 : 0).policy(4, 2);
        assertEquals(1, policy.home(0));
        assertEquals(0, policy.home(1));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> Placement.onNode(5).policy(2, 4));
        assertEquals("placement node:5 puts page 0 on node 5, but nodes are 0..3", ex.getMessage());
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
        assertEquals(Placement.block().fingerprint(100, 4), Placement.block().fingerprint(100, 4));
        assertEquals(Placement.onNode(0).fingerprint(100, 4),
            Placement.explicit(page -> 0).fingerprint(100, 4));
        assertNotEquals(Placement.block().fingerprint(100, 4), Placement.cyclic().fingerprint(100, 4));
        assertNotEquals(Placement.block().fingerprint(100, 4), Placement.firstTouch().fingerprint(100, 4));
    }
}
