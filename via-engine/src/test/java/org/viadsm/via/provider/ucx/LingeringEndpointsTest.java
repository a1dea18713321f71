package org.viadsm.via.provider.ucx;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The endpoints of answers and withdrawals that wait for their peers: each closes once its peer closed its end or
 * at its bound, never more than the capacity linger, and beyond it the oldest closes first.
 */
class LingeringEndpointsTest
{
    private static final int CAPACITY = SetupMessages.MAX_LINGERING;
    private static final long LINGER_NS = SetupMessages.LINGER_NS;

    @Test
    void shouldHoldAtMostItsCapacityClosingTheOldestFirst()
    {
        final LingeringEndpoints<String> lingering = new LingeringEndpoints<>(CAPACITY, LINGER_NS);
        final List<String> closing = new ArrayList<>();
        for (int i = 0; i < CAPACITY + 6; i++)
        {
            lingering.add("answer " + i, new UcxEndpoints.Sink(), i, closing);
            assertEquals(Math.min(i + 1, CAPACITY), lingering.size());
        }
        assertEquals(List.of("answer 0", "answer 1", "answer 2", "answer 3", "answer 4", "answer 5"), closing);
        closing.clear();
        // the rest linger until their bound, each its own
        assertFalse(lingering.closeDue(5 + LINGER_NS, closing));
        assertTrue(lingering.closeDue(7 + LINGER_NS, closing));
        assertEquals(List.of("answer 7", "answer 6"), closing);
        assertEquals(CAPACITY - 2, lingering.size());
    }

    @Test
    void shouldCloseAnEndpointOnceItsPeerClosedItsEnd()
    {
        final LingeringEndpoints<String> lingering = new LingeringEndpoints<>(CAPACITY, LINGER_NS);
        final List<String> closing = new ArrayList<>();
        final UcxEndpoints.Sink taken = new UcxEndpoints.Sink();
        lingering.add("refusal", new UcxEndpoints.Sink(), 0, closing);
        lingering.add("deferral", taken, 0, closing);
        lingering.add("withdrawal", new UcxEndpoints.Sink(), 0, closing);
        assertFalse(lingering.closeDue(1, closing));
        taken.fail("control endpoint to /127.0.0.1:1 failed: UCS_ERR_CONNECTION_RESET (Connection reset by remote " +
            "peer)");
        assertTrue(lingering.closeDue(1, closing));
        assertEquals(List.of("deferral"), closing);
        assertEquals(2, lingering.size());
        closing.clear();
        lingering.drainTo(closing);
        assertEquals(List.of("refusal", "withdrawal"), closing);
        assertEquals(0, lingering.size());
    }
}
