package org.viadsm.dsm;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.ControlRegionLayout;
import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.node.HlrcNode;
import org.viadsm.consistency.page.PageTable;
import org.viadsm.dsm.wire.WireCodec;
import org.viadsm.dsm.wire.WireException;

/**
 * The lifetime of a node's shared arrays: collective allocation (a registered region per array on every node,
 * whose handles the nodes exchange) and collective free (deregistered and released on every node). Each collective
 * writes a record in the control region and reads every other node's, so nodes that allocate or free differently
 * fail, naming the node that disagreed, instead of corrupting each other's memory.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class Allocations
{
    private final Dsm dsm;
    private final HlrcNode node;
    private final ViaProtocolPort port;
    private final int nodeId;
    private final int nodeCount;
    private final int pageSize;
    private final WireCodec codec = AllocationRecord.codec();
    private final List<Allocation> live = new ArrayList<>();
    private long collectives;
    private int conditions;
    private long allocations;
    private int nextRegion = 1;

    Allocations(final Dsm dsm, final HlrcNode node, final ViaProtocolPort port, final int pageSize)
    {
        this.dsm = dsm;
        this.node = node;
        this.port = port;
        this.nodeId = port.nodeId();
        this.nodeCount = port.nodeCount();
        this.pageSize = pageSize;
    }

    /** Collectively allocates an array; see {@link Dsm#allocDoubles(String, int, Placement)}. */
    Allocation allocate(final ElementType type, final String name, final int length, final Placement placement)
    {
        Objects.requireNonNull(placement, "placement");
        checkName(name);
        if (length < 0)
        {
            throw new IllegalArgumentException("length of '" + name + "' must not be negative: " + length);
        }
        final long bytes = Math.max(1L, (long)length * type.size());
        final int pages = (int)((bytes + pageSize - 1) / pageSize);
        final long regionLength = HlrcNode.arrayRegionLength(node.config(), pages);
        if (regionLength > Integer.MAX_VALUE - pageSize)
        {
            throw new IllegalArgumentException("'" + name + "' needs " + bytes + " bytes; a shared array holds " +
                "at most 2 GiB (" + (Integer.MAX_VALUE / type.size()) + " " + type.label() + ")");
        }
        final int perPage = pageSize / type.size();
        final Allocation allocation = new Allocation(allocations + 1, type, name, length,
            placement.fingerprint(pages, perPage, length, nodeCount));
        dsm.enter();
        try
        {
            final int region = nextRegion;
            final ByteBuffer regionMemory = port.regions().memory((int)regionLength);
            final int handle = port.regions().add(region, regionMemory).handle();
            try
            {
                agree(AllocationRecord.ALLOCATE, allocation, handle, region);
            }
            catch (final RuntimeException ex)
            {
                port.regions().remove(region);
                throw ex;
            }
            nextRegion++;
            allocations++;
            final AtomicBuffer buffer = port.region(region);
            final PageTable table = node.addArray(name, region, pages, type.size(),
                placement.policy(pages, perPage, length, nodeCount), buffer);
            allocation.attach(table, new PageFaults(dsm, node, table));
            live.add(allocation);
            return allocation;
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("allocating '" + name + "'", ex);
        }
        finally
        {
            dsm.exit();
        }
    }

    /** Collectively frees the array {@code array} is a handle of; see {@link Dsm#free(SharedArray)}. */
    void free(final SharedArray array)
    {
        free(switch (array)
        {
            case SharedDoubleArray a -> a.faults();
            case SharedLongArray a -> a.faults();
            case SharedIntArray a -> a.faults();
            case SharedFloatArray a -> a.faults();
            case SharedByteArray a -> a.faults();
        });
    }

    /**
     * Collectively frees the allocation behind a handle; see {@link Dsm#free(SharedArray)}.
     *
     * @param faults the handle's fault path, which identifies its allocation.
     */
    void free(final PageFaults faults)
    {
        Allocation allocation = null;
        for (int i = live.size() - 1; i >= 0 && null == allocation; i--)
        {
            if (live.get(i).faults() == faults)
            {
                allocation = live.get(i);
            }
        }
        if (null == allocation)
        {
            throw faults.isFreed() ? new IllegalStateException("shared array '" + faults.name() + "' was freed") :
                new IllegalArgumentException("shared array '" + faults.name() + "' belongs to another node");
        }
        free(allocation);
    }

    /** Frees, newest first, every live allocation numbered after {@code mark}. */
    void freeAfter(final long mark)
    {
        for (int i = live.size() - 1; i >= 0; i--)
        {
            if (live.get(i).number() > mark)
            {
                free(live.get(i));
            }
        }
    }

    /** The number of the latest allocation, the mark of a scope opened now. */
    long mark()
    {
        return allocations;
    }

    private void free(final Allocation allocation)
    {
        dsm.enter();
        try
        {
            agree(AllocationRecord.FREE, allocation, 0, -1);
            // Sends every diff home and applies every write notice, so that no node still refers to the pages; the
            // second waits for every node's end of that acquire, which leaves the copysets of the copies it dropped
            // with remote atomics on the region about to go.
            node.barrier();
            node.syncBarrier();
            final PageTable table = allocation.table();
            allocation.faults().free();
            node.removeArray(table);
            port.regions().remove(table.region());
            live.remove(allocation);
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("freeing '" + allocation.name() + "'", ex);
        }
        finally
        {
            dsm.exit();
        }
    }

    /**
     * Collectively makes the next condition of a lock: every node makes its conditions in the same order.
     *
     * @param lockId the lock.
     * @param limit  how many conditions the cluster may make.
     * @return the condition's number.
     * @throws IllegalStateException if the cluster made {@code limit} conditions already.
     * @throws DsmException          on every node if any node made something else at this point, naming it.
     */
    int condition(final int lockId, final int limit)
    {
        if (conditions >= limit)
        {
            throw new IllegalStateException("node " + nodeId + " cannot make condition #" + conditions + " of lock " +
                lockId + ": a cluster has at most " + limit + " conditions (as many as lock ids)");
        }
        dsm.enter();
        try
        {
            agree(AllocationRecord.CONDITION, AllocationRecord.condition(++collectives, conditions, lockId), -1);
            return conditions++;
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("making condition #" + conditions + " of lock " + lockId, ex);
        }
        finally
        {
            dsm.exit();
        }
    }

    /**
     * Writes this node's record of a collective, waits for every node's, and compares them; for an allocation,
     * records every node's handle of the region.
     */
    private void agree(final int kind, final Allocation allocation, final int handle, final int region)
    {
        agree(kind, AllocationRecord.of(++collectives, kind, allocation, handle), region);
    }

    private void agree(final int kind, final AllocationRecord mine, final int region)
    {
        final ControlRegionLayout layout = node.layout();
        final AtomicBuffer control = port.region(HlrcNode.CONTROL_REGION);
        final int slot = layout.allocationRecord((int)(mine.sequence() & 1));
        codec.encode(mine, control, slot, ControlRegionLayout.ALLOCATION_RECORD_LENGTH);
        node.syncBarrier();
        final StringBuilder mismatches = new StringBuilder();
        for (int other = 0; other < nodeCount; other++)
        {
            if (other == nodeId)
            {
                continue;
            }
            port.read(other, HlrcNode.CONTROL_REGION, slot, HlrcNode.CONTROL_REGION, layout.allocationScratch(),
                ControlRegionLayout.ALLOCATION_RECORD_LENGTH);
            final AllocationRecord theirs;
            try
            {
                theirs = codec.decode(control, layout.allocationScratch(),
                    ControlRegionLayout.ALLOCATION_RECORD_LENGTH, AllocationRecord.class);
            }
            catch (final WireException ex)
            {
                throw new DsmException(nodeId, "node " + other + " published a malformed allocation record: " +
                    ex.getMessage(), ex);
            }
            if (!theirs.sameAs(mine))
            {
                mismatches.append("; node ").append(other).append(" made ").append(theirs.describe());
            }
            else if (AllocationRecord.ALLOCATE == kind)
            {
                port.regions().remoteHandle(region, other, theirs.handle());
            }
        }
        if (mismatches.length() > 0)
        {
            final boolean free = AllocationRecord.FREE == kind;
            final boolean condition = AllocationRecord.CONDITION == kind;
            throw new DsmException(nodeId, (free ? "free" : condition ? "condition" : "allocation") +
                " mismatch: node " + nodeId + " made " + mine.describe() + mismatches + "; every node must " +
                (free ? "free the same arrays" : condition ? "make the same conditions of the same locks" :
                "allocate the same arrays") + " in the same order");
        }
    }

    private static void checkName(final String name)
    {
        if (null == name || name.isEmpty())
        {
            throw new IllegalArgumentException("a shared array needs a non-empty name");
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > AllocationRecord.MAX_NAME_BYTES)
        {
            throw new IllegalArgumentException("array name longer than " + AllocationRecord.MAX_NAME_BYTES +
                " bytes: " + name.substring(0, 32) + "...");
        }
    }
}
