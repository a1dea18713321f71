package org.viadsm.consistency.notice;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NoticeHistoryTest
{
    @Test
    void shouldAddPagesInBulkAsOneAtATime()
    {
        final NoticeHistory bulk = new NoticeHistory(2);
        final NoticeHistory single = new NoticeHistory(2);
        // intervals of 3 000 pages: the third runs over the end of the ring (8 192)
        for (int sequence = 1; sequence <= 4; sequence++)
        {
            final int[] pages = pages(sequence, 3000);
            bulk.beginInterval(1, sequence);
            bulk.addPages(1, pages, pages.length);
            single.beginInterval(1, sequence);
            for (final int page : pages)
            {
                single.addPage(1, page);
            }
        }
        assertSame(single, bulk, 1, 4 * 3000);
        assertTrue(bulk.covers(1, 2, 4));
        assertFalse(bulk.covers(1, 1, 4), "the second interval was partly overwritten");
        assertEquals(3 * 10_000 + 2999, bulk.page(1, bulk.start(1, 3) + 2999));
        assertEquals(4 * 10_000, bulk.page(1, bulk.start(1, 4)));
        assertEquals(0, bulk.start(0, 1), "the other node's run is untouched");
    }

    @Test
    void shouldKeepTheNewestPagesOfAnIntervalLongerThanTheRing()
    {
        final NoticeHistory bulk = new NoticeHistory(1);
        final NoticeHistory single = new NoticeHistory(1);
        final int count = NoticeHistory.PAGES + 1000;
        final int[] pages = pages(1, count + 5);
        bulk.beginInterval(0, 1);
        bulk.addPages(0, pages, count);
        single.beginInterval(0, 1);
        for (int i = 0; i < count; i++)
        {
            single.addPage(0, pages[i]);
        }
        assertSame(single, bulk, 0, count);
        assertFalse(bulk.covers(0, 0, 1), "too long to forward");
    }

    private static int[] pages(final int sequence, final int count)
    {
        final int[] pages = new int[count];
        for (int i = 0; i < count; i++)
        {
            pages[i] = sequence * 10_000 + i;
        }
        return pages;
    }

    private static void assertSame(final NoticeHistory expected, final NoticeHistory actual, final int node,
        final long added)
    {
        assertEquals(expected.start(node, Long.MAX_VALUE), actual.start(node, Long.MAX_VALUE), "tail");
        assertEquals(added, actual.start(node, Long.MAX_VALUE));
        for (long position = added - NoticeHistory.PAGES; position < added; position++)
        {
            assertEquals(expected.page(node, position), actual.page(node, position), "position " + position);
        }
    }
}
