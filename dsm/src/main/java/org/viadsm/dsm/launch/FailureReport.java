package org.viadsm.dsm.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a cluster run failed, root cause first: the node that was lost or failed on its own, and why (its process
 * was killed by a signal, or its program failed), then what that broke on the other nodes (which stopped because
 * they lost it, or were stopped by the launcher).
 * <p>
 * The root cause is, in the order the nodes exited: a node ended by a signal the launcher did not send; else a
 * node whose program failed on its own (not because it lost a node or a node left it); else the node the others
 * say they lost.
 */
public final class FailureReport
{
    private static final Pattern LOST = Pattern.compile("NodeLostException: node \\d+: (?:.*: )?node (\\d+) was lost");
    private static final Pattern LOST_NIC = Pattern.compile("NodeLostException: node (\\d+): .*this node's NIC failed");

    private final NodeExit root;
    private final int rootNode;
    private final List<String> lines = new ArrayList<>();

    private FailureReport(final List<NodeExit> exits)
    {
        NodeExit signalled = null;
        NodeExit own = null;
        int named = -1;
        for (final NodeExit exit : exits)
        {
            if (!exit.failed() || exit.stopped())
            {
                continue;
            }
            final int lost = lostNode(exit.error());
            if (exit.signal() > 0)
            {
                signalled = null == signalled ? exit : signalled;
            }
            else if (lost >= 0)
            {
                named = named < 0 ? lost : named;
            }
            else if (null == own && !isConsequence(exit.error()))
            {
                own = exit;
            }
        }
        root = null != signalled ? signalled : own;
        rootNode = null != root ? root.node() : named;
        lines.add(rootLine(exits));
        for (final NodeExit exit : exits)
        {
            if (exit.failed() && exit.node() != rootNode)
            {
                lines.add("then " + consequence(exit));
            }
        }
    }

    /**
     * Builds the report.
     *
     * @param exits how every node ended, in the order they exited.
     * @return the report, or null if every node succeeded.
     */
    public static FailureReport of(final List<NodeExit> exits)
    {
        for (final NodeExit exit : exits)
        {
            if (exit.failed())
            {
                return new FailureReport(exits);
            }
        }
        return null;
    }

    /**
     * The node at the root of the failure.
     *
     * @return its id, or -1 if no node could be blamed.
     */
    public int rootNode()
    {
        return rootNode;
    }

    /**
     * How the root node ended, if it failed itself (rather than being named lost by the others).
     *
     * @return its exit, or null.
     */
    public NodeExit root()
    {
        return root;
    }

    /**
     * The report: the root cause, then one line per other failed node, prefixed with "then".
     *
     * @return the lines.
     */
    public List<String> lines()
    {
        return lines;
    }

    /**
     * The node a failure says it lost, from the {@code NodeLostException} in its error output.
     *
     * @param error a node's error output.
     * @return the lost node, or -1 if it lost none.
     */
    public static int lostNode(final String error)
    {
        final Matcher matcher = LOST.matcher(error);
        if (matcher.find())
        {
            return Integer.parseInt(matcher.group(1));
        }
        final Matcher nic = LOST_NIC.matcher(error);
        return nic.find() ? Integer.parseInt(nic.group(1)) : -1;
    }

    /**
     * The first line of an error output that says what went wrong (not a stack frame).
     *
     * @param text an error output.
     * @return that line, or "no error output".
     */
    public static String firstMessageLine(final String text)
    {
        final String[] lines = text.strip().split("\\R");
        for (final String line : lines)
        {
            if (!line.isBlank() && !line.startsWith("\tat ") && !line.startsWith("Caused by"))
            {
                return line.strip();
            }
        }
        return "no error output";
    }

    private String rootLine(final List<NodeExit> exits)
    {
        if (null == root)
        {
            return rootNode < 0 ? "no node could be blamed: " + consequence(firstFailure(exits)) :
                "node " + rootNode + " was lost, as the other nodes report";
        }
        if (root.signal() > 0)
        {
            return "node " + root.node() + " was lost: its process was killed by " +
                NodeExit.describeSignal(root.signal());
        }
        return "node " + root.node() + " failed (exit code " + root.code() + "): " + firstMessageLine(root.error());
    }

    private static NodeExit firstFailure(final List<NodeExit> exits)
    {
        for (final NodeExit exit : exits)
        {
            if (exit.failed())
            {
                return exit;
            }
        }
        throw new IllegalStateException("no node failed");
    }

    private static String consequence(final NodeExit exit)
    {
        if (exit.stopped())
        {
            return "node " + exit.node() + " was stopped by the launcher";
        }
        if (exit.signal() > 0)
        {
            return "node " + exit.node() + " was killed by " + NodeExit.describeSignal(exit.signal());
        }
        return "node " + exit.node() + " failed (exit code " + exit.code() + "): " + lostLine(exit.error());
    }

    /** The line of the error output that names the lost node, else the first message line. */
    private static String lostLine(final String error)
    {
        for (final String line : error.split("\\R"))
        {
            if (LOST.matcher(line).find() || LOST_NIC.matcher(line).find())
            {
                final String message = line.substring(line.indexOf("NodeLostException: ") + 19).strip();
                return message.replaceFirst("^node \\d+: ", "");
            }
        }
        return firstMessageLine(error);
    }

    /** Whether a failure was caused by another node leaving or failing, as the protocol's waits report it. */
    private static boolean isConsequence(final String error)
    {
        return error.contains("left the cluster") || error.contains(") while this node waited");
    }
}
