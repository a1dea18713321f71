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
        final NodeLoss loss = new NodeLoss(1, 3, () -> { });
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
        final NodeLoss loss = new NodeLoss(1, 3, () -> { });
        loss.suspect(2, "connection closed");
        loss.departed(2);
        assertFalse(loss.isPending());
        loss.resolve();
        assertEquals(-1, loss.node());
    }

    @Test
    void shouldPreferAReportedLossToTheSuspectWhoseConnectionFailedFirst()
    {
        final NodeLoss loss = new NodeLoss(1, 3, () -> { });
        loss.suspect(0, "CONNECTION_LOST");
        loss.reported(0, 2);
        loss.resolve();
        assertEquals(2, loss.node());
        loss.suspect(0, "later");
        loss.resolve();
        assertEquals(2, loss.node(), "decided once");
    }

    @Test
    void shouldSuspectThePeerOfAFlushedDescriptorWithTheNicsReasonWhenTheNicQueuedOne()
    {
        final NodeLoss[] self = new NodeLoss[1];
        final NodeLoss loss = new NodeLoss(1, 3, () -> self[0].suspect(2, "CONNECTION_LOST (its process died)"));
        self[0] = loss;
        assertFalse(loss.isPending());
        loss.connectionFailed(2, "its connection failed (a receive completed with DESC_FLUSHED_ERROR)");
        assertTrue(loss.isPending(), "a flushed descriptor is a suspicion without waiting for the NIC's report");
        loss.resolve();
        assertEquals(2, loss.node());
        assertEquals("CONNECTION_LOST (its process died)", loss.reason());
    }

    @Test
    void shouldSuspectThePeerOfAFlushedDescriptorWhileTheNicsReportIsStillOnItsWay()
    {
        final NodeLoss loss = new NodeLoss(1, 3, () -> { });
        loss.connectionFailed(2, "its connection failed (a receive completed with DESC_FLUSHED_ERROR)");
        loss.resolve();
        assertEquals(2, loss.node());
        assertEquals("its connection failed (a receive completed with DESC_FLUSHED_ERROR)", loss.reason());
    }

    @Test
    void shouldNotSuspectADepartedPeerWhoseDescriptorsAreFlushedAsItCloses()
    {
        final NodeLoss loss = new NodeLoss(1, 3, () -> { });
        loss.departed(2);
        loss.connectionFailed(2, "its connection failed (a receive completed with DESC_FLUSHED_ERROR)");
        assertFalse(loss.isPending());
    }
}
