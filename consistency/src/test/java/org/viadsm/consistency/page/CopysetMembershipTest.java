package org.viadsm.consistency.page;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CopysetMembershipTest
{
    @Test
    void shouldLeaveThePagesDroppedWordByWordAndCountAJoinOfAPageLeftAsARejoin()
    {
        final CopysetMembership membership = new CopysetMembership(4);
        assertEquals(-1, membership.nextLeaving(0));

        membership.dropped(3, 0b1L);
        membership.dropped(1, 0b10L);
        membership.dropped(1, 0b100L);
        assertTrue(membership.isLeaving(1));
        assertFalse(membership.isLeaving(2));
        assertEquals(1, membership.nextLeaving(0));
        assertEquals(0b110L, membership.takeLeaving(1));
        assertEquals(3, membership.nextLeaving(2));
        assertEquals(0b1L, membership.takeLeaving(3));
        assertEquals(-1, membership.nextLeaving(0));

        assertTrue(membership.joined(1, 0b10L), "left before");
        assertFalse(membership.joined(1, 0b10L), "joined since");
        assertFalse(membership.joined(2, 0b1L), "never left");
        assertTrue(membership.joined(3, 0b11L));
    }
}
