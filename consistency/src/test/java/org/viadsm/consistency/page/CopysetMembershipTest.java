package org.viadsm.consistency.page;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CopysetMembershipTest
{
    @Test
    void shouldLeaveAPageInvalidAtEnoughBarriersInARowAndCountOnlyWhileACountIsUnderWay()
    {
        final CopysetMembership membership = new CopysetMembership(128, 2);
        assertFalse(membership.isCounting());

        // pages 0 and 1 registered; page 1 invalid at one barrier, then valid again: its count starts and is reset
        assertEquals(0L, membership.barrier(0, 0b11L, 0b10L));
        assertTrue(membership.isCounting());
        assertEquals(0L, membership.barrier(0, 0b11L, 0L));
        assertFalse(membership.isCounting());

        // page 65 invalid at MIN_LEAVE_BARRIERS barriers in a row is left, and no count is left under way
        for (int barrier = 1; barrier < CopysetMembership.MIN_LEAVE_BARRIERS; barrier++)
        {
            assertEquals(0L, membership.barrier(1, 0b10L, 0b10L));
            assertTrue(membership.isCounting());
        }
        assertEquals(0b10L, membership.barrier(1, 0b10L, 0b10L));
        assertFalse(membership.isCounting());

        // joining it again doubles the barriers before the next leave
        assertTrue(membership.joined(1, 0b10L));
        assertEquals(2 * CopysetMembership.MIN_LEAVE_BARRIERS, membership.leaveAfter());
        assertFalse(membership.joined(1, 0b10L));
    }
}
