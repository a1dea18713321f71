package org.viadsm.bench.dsm;

import java.nio.file.Path;

import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.viadsm.bench.via.SpinParkIdle;
import org.viadsm.bench.via.ViEndpoint;
import org.viadsm.dsm.Dsm;
import org.viadsm.dsm.Placement;
import org.viadsm.dsm.SharedIntArray;
import org.viadsm.dsm.SharedLongArray;

/**
 * What the cases of one node process share, made on first use by every node at the same point of the run (the
 * runner calls the same cases in the same order on every node, so collective steps line up): the joined node, the
 * raw file of the baselines, a VI between nodes 0 and 1 outside the DSM, and a way to agree on when to stop.
 * Node 0 measures; the others help (home of pages, manager of locks, barrier partners).
 * <p>
 * <b>Note:</b> used by the node's one thread.
 */
final class DsmRig implements AutoCloseable
{
    static final int MEASURER = 0;
    static final int HELPER = 1;

    final Dsm dsm;
    private final String name;
    private final int coldLength;
    private RawShared raw;
    private RawBarrier rawBarrier;
    private ViEndpoint vi;
    private int peerHandle;
    private SharedIntArray control;

    /**
     * A rig.
     *
     * @param dsm        the joined node.
     * @param name       the cluster's name, the same on every node, for the files and NIC addresses it makes.
     * @param coldLength bytes of cold pages for the read-miss row.
     */
    DsmRig(final Dsm dsm, final String name, final int coldLength)
    {
        this.dsm = dsm;
        this.name = name;
        this.coldLength = coldLength;
    }

    boolean isMeasurer()
    {
        return MEASURER == dsm.nodeId();
    }

    boolean isHelper()
    {
        return HELPER == dsm.nodeId();
    }

    int coldLength()
    {
        return coldLength;
    }

    /**
     * The raw file: node 0 creates it, the others map it, then it is unlinked (the mappings stay).
     *
     * @return the mapped file.
     */
    RawShared raw()
    {
        if (null == raw)
        {
            final Path file = SpinParkIdle.SETTINGS.shmDirectory().resolve("viadsm-" + name + ".raw");
            if (isMeasurer())
            {
                raw = RawShared.create(file, coldLength);
            }
            dsm.barrier();
            if (!isMeasurer())
            {
                raw = RawShared.map(file, coldLength);
            }
            dsm.barrier();
            if (isMeasurer())
            {
                // every node has mapped it: the memory stays until they unmap or exit
                IoUtil.deleteIfExists(file.toFile());
            }
            rawBarrier = new RawBarrier(raw.buffer, dsm.nodeCount());
        }
        return raw;
    }

    RawBarrier rawBarrier()
    {
        raw();
        return rawBarrier;
    }

    /**
     * The VI between nodes 0 and 1 (other nodes take part in the exchange only).
     *
     * @return this node's endpoint, connected, or null on nodes other than 0 and 1.
     */
    ViEndpoint vi()
    {
        if (null == vi)
        {
            final SharedLongArray handles = dsm.allocLongs("bench.vi", dsm.nodeCount(), Placement.onNode(0));
            final int id = dsm.nodeId();
            if (id <= HELPER)
            {
                vi = new ViEndpoint("shm:" + name + "v" + id, 0);
                handles.set(id, vi.region().handle());
            }
            dsm.barrier();
            if (id <= HELPER)
            {
                vi.connectRequest("shm:" + name + "v" + (1 - id));
                vi.connectWait();
                peerHandle = (int)handles.get(1 - id);
            }
            dsm.barrier();
        }
        return vi;
    }

    int peerHandle()
    {
        return peerHandle;
    }

    /**
     * Every node learns node 0's decision; a collective step (a DSM barrier).
     *
     * @param stop node 0's decision; ignored on the others.
     * @return node 0's decision.
     */
    boolean agree(final boolean stop)
    {
        if (null == control)
        {
            control = dsm.allocInts("bench.control", 1, Placement.onNode(MEASURER));
        }
        if (isMeasurer())
        {
            control.set(0, stop ? 1 : 0);
        }
        dsm.barrier();
        return 1 == control.get(0);
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(vi, raw);
        vi = null;
        raw = null;
    }
}
