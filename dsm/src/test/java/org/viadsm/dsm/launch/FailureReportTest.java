package org.viadsm.dsm.launch;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class FailureReportTest
{
    private static final String LOST_1 = "Exception in thread \"main\" org.viadsm.dsm.NodeLostException: node 0: " +
        "acquiring lock 7: node 1 was lost (CONNECTION_LOST (the peer closed)); the cluster has stopped\n" +
        "\tat org.viadsm.dsm.Dsm.enter(Dsm.java:1)";

    @Test
    void shouldPutAKilledNodeFirstWhateverTheOrderOfExits()
    {
        final FailureReport report = FailureReport.of(List.of(
            new NodeExit(0, 1, false, LOST_1),
            new NodeExit(1, 137, false, ""),
            new NodeExit(2, 143, true, "")));
        assertEquals(1, report.rootNode());
        assertEquals(List.of(
            "node 1 was lost: its process was killed by signal 9 (SIGKILL)",
            "then node 0 failed (exit code 1): acquiring lock 7: node 1 was lost (CONNECTION_LOST (the peer " +
                "closed)); the cluster has stopped",
            "then node 2 was stopped by the launcher"), report.lines());
    }

    @Test
    void shouldBlameANodeThatFailedOnItsOwnBeforeThoseItBroke()
    {
        final FailureReport report = FailureReport.of(List.of(
            new NodeExit(2, 1, false, "node 2: barrier: node 0 left the cluster while this node waited for barrier 3"),
            new NodeExit(0, 1, false, "java.lang.IllegalStateException: node 0 gives up\n\tat Hello.main(H.java:9)"),
            new NodeExit(1, 0, false, "")));
        assertEquals(0, report.rootNode());
        assertEquals("node 0 failed (exit code 1): java.lang.IllegalStateException: node 0 gives up",
            report.lines().get(0));
        assertEquals(2, report.lines().size());
    }

    @Test
    void shouldNameTheNodeTheOthersLostWhenItDidNotFailItself()
    {
        final FailureReport report = FailureReport.of(List.of(
            new NodeExit(0, 1, false, LOST_1),
            new NodeExit(1, 0, false, "")));
        assertEquals(1, report.rootNode());
        assertEquals("node 1 was lost, as the other nodes report", report.lines().get(0));
        assertNull(report.root());
    }

    @Test
    void shouldReportNothingWhenEveryNodeSucceeded()
    {
        assertNull(FailureReport.of(List.of(new NodeExit(0, 0, false, ""), new NodeExit(1, 0, false, ""))));
    }
}
