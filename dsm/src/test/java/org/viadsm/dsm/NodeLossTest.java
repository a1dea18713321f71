package org.viadsm.dsm;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a node decides which node was lost, from the suspicions its connections raise and the reports and
 * departures its peers send, in the orders they can arrive.
 */
class NodeLossTest
{
    @Test
    void shouldNameTheNodeAPeerReportedEvenWhenThatPeerThenClosesAndDeparts()
    {
        final NodeLoss loss = new NodeLoss(1, 3);
        loss.reported(0, 2);
        loss.suspect(0, "connection closed");
        loss.departed(0);
        assertTrue(loss.isPending());
        loss.resolve();
        assertEquals(2, loss.node());
        assertEquals("node 0 lost it", loss.reason());
    }

    @Test
    void shouldForgetASuspicionOnceTheSuspectAnnouncedItsDeparture()
    {
        final NodeLoss loss = new NodeLoss(1, 3);
        loss.suspect(2, "connection closed");
        loss.departed(2);
        assertFalse(loss.isPending());
        loss.resolve();
        assertEquals(-1, loss.node());
    }

    @Test
    void shouldPreferAReportedLossToTheSuspectWhoseConnectionFailedFirst()
    {
        final NodeLoss loss = new NodeLoss(1, 3);
        loss.suspect(0, "CONNECTION_LOST");
        loss.reported(0, 2);
        loss.resolve();
        assertEquals(2, loss.node());
        loss.suspect(0, "later");
        loss.resolve();
        assertEquals(2, loss.node(), "decided once");
    }
}
