package org.viadsm.bench.dsm;

import java.util.ArrayList;
import java.util.List;

/**
 * The rows of {@code bench dsm} by cluster: 2 node processes for the protocol's operations, 4 for the larger
 * barrier, 1 for the array sweeps (every page at home).
 */
final class DsmCases
{
    /** Cluster sizes, in the order the command runs them. */
    static final int[] CLUSTERS = {2, 4, 1};

    private DsmCases()
    {
    }

    /**
     * The cases a cluster of {@code nodes} runs. Constructing them touches nothing, so a null rig gives their names.
     *
     * @param rig         the node's rig, or null for names only.
     * @param nodes       the cluster size, one of {@link #CLUSTERS}.
     * @param coldLength  bytes of cold pages for the read-miss row.
     * @param sweepLength doubles per sweep.
     * @return the cases in report order.
     */
    static List<NodeCase> forCluster(final DsmRig rig, final int nodes, final int coldLength, final int sweepLength)
    {
        final List<NodeCase> cases = new ArrayList<>();
        switch (nodes)
        {
            case 1:
                for (final SweepCase.Kind kind : SweepCase.Kind.values())
                {
                    cases.add(new SweepCase(rig, kind, sweepLength));
                }
                break;
            case 2:
                cases.add(new ReadMissCase(rig, coldLength));
                cases.add(new WriteReleaseCase(rig));
                cases.add(new CachedLockCase(rig));
                cases.add(new RemoteLockCase(rig));
                cases.add(new BarrierCase(rig, 2));
                break;
            default:
                cases.add(new BarrierCase(rig, nodes));
                break;
        }
        return cases;
    }

    /**
     * The cases whose metric is in {@code metrics}.
     *
     * @param cases   the cases.
     * @param metrics metric names.
     * @return the selected cases, in order.
     */
    static List<NodeCase> select(final List<NodeCase> cases, final List<String> metrics)
    {
        final List<NodeCase> selected = new ArrayList<>();
        for (final NodeCase benchCase : cases)
        {
            if (metrics.contains(benchCase.metric()))
            {
                selected.add(benchCase);
            }
        }
        return selected;
    }
}
