package org.viadsm.dsm.launch;

import org.viadsm.dsm.Dsm;

/**
 * What every node of a {@link LocalCluster} runs.
 */
@FunctionalInterface
public interface DsmProgram
{
    /**
     * Runs as one node.
     *
     * @param dsm the node, joined; the cluster closes it afterwards.
     * @throws Exception if the node fails; the run then fails, naming the node.
     */
    void run(Dsm dsm) throws Exception;
}
