package org.viadsm.dsm;

import java.nio.ByteBuffer;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.node.HlrcNode;
import org.viadsm.consistency.port.NotificationHandler;
import org.viadsm.consistency.port.Notifications;
import org.viadsm.consistency.port.ProtocolPort;
import org.viadsm.via.AsyncError;
import org.viadsm.via.AsyncErrorHandler;
import org.viadsm.via.Completion;
import org.viadsm.via.CompletionQueue;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

/**
 * The protocol's port over VIA: one reliable-reception VI per peer, RDMA Read for {@link #read}, RDMA Write for
 * {@link #write}, RDMA Write with immediate data for {@link #writeAndNotify} (the immediate data is the
 * notification; it consumes one of the receives posted on the target's VI), and the NIC's remote atomics.
 * Operations on this node's own regions touch local memory directly.
 * <p>
 * Receives: each VI has {@link #RECEIVES_PER_PEER} receives posted at all times, reposted as soon as one is
 * consumed; the protocol never has more notifications in flight from one peer (a grant, two barrier rounds and
 * a leave at most), so the receive queue never runs empty. All receive queues report to one completion queue,
 * which {@link #awaitNotifications} waits on; the {@link NotificationReceiver} takes them in.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class ViaProtocolPort implements ProtocolPort, AsyncErrorHandler
{
    static final int RECEIVES_PER_PEER = 16;
    /** Where the scratch memory takes the previous values of posted atomics that nobody waits for. */
    private static final int DISCARDED_OFFSET = 8;

    private final Nic nic;
    private final int nodeId;
    private final int nodeCount;
    private final Counters counters;
    private final ProtectionTag ptag;
    private final SendRing[] peers;
    private final Descriptor[] startedReads;
    private final RegionTable regions;
    private final Completion completion = new Completion();
    private final ByteBuffer scratchMemory;
    private final MemoryRegion scratch;
    private final CompletionQueue probeCq;
    private final NodeLoss loss;
    private final NotificationReceiver receiver;
    private final boolean fencesReadLike;

    ViaProtocolPort(final Nic nic, final int nodeId, final int nodeCount, final Counters counters)
    {
        this.nic = nic;
        this.nodeId = nodeId;
        this.nodeCount = nodeCount;
        this.counters = counters;
        this.ptag = nic.createPtag();
        final CompletionQueue recvCq = nic.createCq(Math.max(64, nodeCount * RECEIVES_PER_PEER * 2));
        this.peers = new SendRing[nodeCount];
        this.startedReads = new Descriptor[nodeCount];
        this.scratchMemory = nic.allocateMemory(4096);
        this.regions = new RegionTable(nic, ptag, nodeId, nodeCount);
        this.scratch = nic.registerMemory(scratchMemory, MemoryAttributes.localOnly(ptag));
        this.probeCq = nic.createCq(1);
        this.loss = new NodeLoss(nodeId, nodeCount, this::probe);
        this.receiver = new NotificationReceiver(nodeId, recvCq, peers, loss);
        // the order of operations to one node takes queue fences only where the targets may overlap read-like
        // operations: over tcp a read fenced behind a copyset join's fetch-and-add went out a round trip later
        this.fencesReadLike = !nic.attributes().orderedTargetAccess();
        nic.errorHandler(this);
    }

    Nic nic()
    {
        return nic;
    }

    ProtectionTag ptag()
    {
        return ptag;
    }

    /**
     * Creates the VI to {@code node} with its receives already posted (VIA allows posting before connecting, and
     * the peer may send as soon as the connection is up).
     */
    Vi createVi(final int node, final Descriptor helloReceive)
    {
        final ViAttributes attributes = new ViAttributes()
            .reliabilityLevel(ReliabilityLevel.RELIABLE_RECEPTION)
            .ptag(ptag)
            .enableRdmaRead(true)
            .enableRdmaWrite(true);
        final Vi vi = nic.createVi(attributes, null, receiver.completionQueue());
        final SendRing peer = new SendRing(nic, loss, nodeId, node, vi);
        peers[node] = peer;
        vi.postRecv(helloReceive);
        for (int i = 0; i < RECEIVES_PER_PEER; i++)
        {
            vi.postRecv(Descriptor.allocate(0).send());
        }
        return vi;
    }

    Vi vi(final int node)
    {
        return peers[node].vi;
    }

    /** See {@link NotificationReceiver#awaitTagged(long, long)}. */
    int awaitTagged(final long tag, final long timeoutNs)
    {
        return receiver.awaitTagged(tag, timeoutNs);
    }

    /** This node's registered regions and the handles of the peers' copies. */
    RegionTable regions()
    {
        return regions;
    }

    @Override
    public int nodeId()
    {
        return nodeId;
    }

    @Override
    public int nodeCount()
    {
        return nodeCount;
    }

    @Override
    public AtomicBuffer region(final int region)
    {
        return regions.of(region).local.buffer();
    }

    @Override
    public void read(final int node, final int region, final long offset, final int localRegion,
        final long localOffset, final int length)
    {
        final Descriptor last = postRead(node, region, offset, localRegion, localOffset, length, true);
        if (null != last)
        {
            peers[node].await(last);
            counters.add(Counter.RDMA_READ_BYTES, length);
        }
    }

    @Override
    public void startRead(final int node, final int region, final long offset, final int localRegion,
        final long localOffset, final int length)
    {
        // the first read started since the last wait comes after atomics posted without a wait; the others of the
        // batch may overlap it
        final Descriptor last = postRead(node, region, offset, localRegion, localOffset, length,
            null == startedReads[node]);
        if (null != last)
        {
            startedReads[node] = last;
            counters.add(Counter.RDMA_READ_BYTES, length);
        }
    }

    @Override
    public void startCompareAndSwap(final int node, final int region, final long offset, final long expected,
        final long update, final int localRegion, final long localOffset)
    {
        if (node == nodeId)
        {
            ProtocolPort.super.startCompareAndSwap(node, region, offset, expected, update, localRegion, localOffset);
            return;
        }
        final SendRing peer = peer(node);
        final Descriptor d = peer.nextSend();
        // the fence keeps it after the operations posted to the node before it on transports that may overlap
        // read-like operations; the previous value lands in local registered memory, as a read's data does
        d.compareAndSwap(regions.of(region).handles[node], offset, expected, update)
            .addSegment(regions.of(localRegion).local, localOffset, 8).queueFence(fencesReadLike);
        peer.post(d, SendRing.COMPARE_AND_SWAP, region, 8);
        counters.increment(Counter.ATOMICS);
        // completed in posting order with the reads started: awaitReads waits for the last one posted
        startedReads[node] = d;
    }

    @Override
    public void awaitReads()
    {
        for (int node = 0; node < nodeCount; node++)
        {
            final Descriptor last = startedReads[node];
            if (null != last)
            {
                // reads complete in posting order, so the last one started covers the others
                startedReads[node] = null;
                peers[node].await(last);
            }
        }
    }

    @Override
    public void write(final int node, final int region, final long offset, final int localRegion,
        final long localOffset, final int length)
    {
        final RegionTable.Region local = regions.of(localRegion);
        if (node == nodeId)
        {
            regions.of(region).local.buffer().putBytes((int)offset, local.local.buffer(), (int)localOffset, length);
            return;
        }
        final SendRing peer = peer(node);
        final int handle = regions.of(region).handles[node];
        for (int done = 0; done < length; done += peer.maxTransfer)
        {
            final int chunk = Math.min(peer.maxTransfer, length - done);
            final Descriptor d = peer.nextSend();
            d.rdmaWrite(handle, offset + done).addSegment(local.local, localOffset + done, chunk);
            peer.post(d, SendRing.RDMA_WRITE, region, chunk);
            counters.increment(Counter.RDMA_WRITES);
        }
        counters.add(Counter.RDMA_WRITE_BYTES, length);
    }

    @Override
    public void writeAndNotify(final int node, final int region, final long offset, final int localRegion,
        final long localOffset, final int length, final int notification)
    {
        if (node == nodeId)
        {
            throw new IllegalArgumentException("node " + nodeId + " cannot notify itself");
        }
        final SendRing peer = peer(node);
        final Descriptor d = peer.nextSend();
        d.rdmaWrite(regions.of(region).handles[node], offset).immediateData(notification);
        if (length > 0)
        {
            d.addSegment(regions.of(localRegion).local, localOffset, length);
        }
        peer.post(d, SendRing.NOTIFICATION, region, notification);
        counters.increment(Counter.RDMA_WRITES);
        counters.add(Counter.RDMA_WRITE_BYTES, length);
    }

    @Override
    public void flushWrites()
    {
        for (final SendRing peer : peers)
        {
            if (null != peer)
            {
                peer.drain();
            }
        }
    }

    @Override
    public long compareAndSwap(final int node, final int region, final long offset, final long expected,
        final long update)
    {
        if (node == nodeId)
        {
            final AtomicBuffer buffer = regions.of(region).local.buffer();
            while (true)
            {
                final long current = buffer.getLongVolatile((int)offset);
                if (current != expected || buffer.compareAndSetLong((int)offset, expected, update))
                {
                    return current;
                }
            }
        }
        final SendRing peer = peer(node);
        final Descriptor d = peer.nextSend();
        d.compareAndSwap(regions.of(region).handles[node], offset, expected, update).addSegment(scratch, 0, 8);
        return atomic(peer, d, SendRing.COMPARE_AND_SWAP, region);
    }

    @Override
    public long fetchAndAdd(final int node, final int region, final long offset, final long delta)
    {
        if (node == nodeId)
        {
            return regions.of(region).local.buffer().getAndAddLong((int)offset, delta);
        }
        final SendRing peer = peer(node);
        final Descriptor d = peer.nextSend();
        d.fetchAndAdd(regions.of(region).handles[node], offset, delta).addSegment(scratch, 0, 8);
        return atomic(peer, d, SendRing.FETCH_AND_ADD, region);
    }

    @Override
    public void postFetchAndAdd(final int node, final int region, final long offset, final long delta)
    {
        if (node == nodeId)
        {
            regions.of(region).local.buffer().getAndAddLong((int)offset, delta);
            return;
        }
        final SendRing peer = peer(node);
        final Descriptor d = peer.nextSend();
        // the previous value lands beside the waited-for atomics' word, which it must not overwrite; the fence (and
        // the one on the next read) keeps it in issue order on transports that may overlap read-like operations
        d.fetchAndAdd(regions.of(region).handles[node], offset, delta).addSegment(scratch, DISCARDED_OFFSET, 8)
            .queueFence(fencesReadLike);
        peer.post(d, SendRing.FETCH_AND_ADD, region, 8);
        counters.increment(Counter.ATOMICS);
    }

    @Override
    public int pollNotifications(final NotificationHandler handler)
    {
        return receiver.poll(handler);
    }

    @Override
    public int awaitNotifications(final long timeoutNs, final NotificationHandler handler)
    {
        return receiver.await(timeoutNs, handler);
    }

    /**
     * Queues the failure for the application thread and records the peer as lost (the first loss stops the
     * cluster: see {@link #lostNode()}); may run on the provider's engine thread, hence the concurrent queue. An
     * error of the whole NIC fails every peer.
     */
    @Override
    public void onAsyncError(final AsyncError error, final Vi vi, final String detail)
    {
        final String reason = error + (null == detail ? "" : " (" + detail + ")");
        final int node = null == vi ? -1 : receiver.nodeOf(vi);
        if (node >= 0)
        {
            loss.suspect(node, reason);
            receiver.peerFailed(node, reason);
        }
        else if (null == vi)
        {
            loss.suspect(nodeId, reason);
            for (int peer = 0; peer < nodeCount; peer++)
            {
                if (peer != nodeId)
                {
                    receiver.peerFailed(peer, reason);
                }
            }
        }
    }

    /**
     * The node this node lost: a peer whose connection failed before it announced its departure, or the node a
     * peer reported lost (or this node, if its own NIC failed). Once set, it never changes. Resolving a suspected
     * loss takes in the notifications that arrived before it (keeping the protocol's for later), so that a peer's
     * report of the loss it saw first wins over that peer's own departure; the application thread only.
     *
     * @return the node, or -1 while every node is there.
     */
    int lostNode()
    {
        if (loss.isPending())
        {
            receiver.takeIn();
            loss.resolve();
        }
        return loss.node();
    }

    /**
     * The node's record of a lost node, for a look that needs no call into the port (see {@link NodeLoss#isQuiet()}).
     *
     * @return the record.
     */
    NodeLoss loss()
    {
        return loss;
    }

    /**
     * Why {@link #lostNode()} was lost, as the NIC or a peer reported it.
     *
     * @return the reason, or null while no node is lost.
     */
    String lostReason()
    {
        return loss.reason();
    }

    /**
     * Lets the NIC do its housekeeping (deliver queued asynchronous errors, check that peers are alive, read
     * sockets) on behalf of a node whose operations touch only local memory, so it learns of a loss as soon as a
     * node that calls the NIC would.
     */
    void probe()
    {
        if (!nic.isClosed())
        {
            probeCq.done(completion);
        }
    }

    /** Disconnects every VI and releases the NIC's resources. */
    void close()
    {
        for (final SendRing peer : peers)
        {
            if (null != peer)
            {
                peer.vi.close();
            }
        }
        nic.close();
    }

    /**
     * Tells every other node that this node lost {@link #lostNode()} and has stopped, so that a node that cannot
     * see the loss itself (its link to the lost node still up, or not yet timed out) stops too, and names the
     * same node. Nodes that cannot be reached are skipped.
     */
    void announceStop()
    {
        final int lost = loss.node();
        final int stopped = Notifications.of(Notifications.STOPPED, Math.max(0, lost));
        for (int node = 0; node < nodeCount; node++)
        {
            if (node != nodeId && node != lost && null != peers[node])
            {
                try
                {
                    writeAndNotify(node, HlrcNode.CONTROL_REGION, 0, HlrcNode.CONTROL_REGION, 0, 0, stopped);
                }
                catch (final RuntimeException ignore)
                {
                    // a node that cannot be told learns of the loss from its own connections
                }
            }
        }
    }

    /**
     * Posts the RDMA Reads of a read (several if it is longer than the VI's maximum transfer size), or copies
     * locally from this node's own region.
     *
     * @param fence whether the first read starts only after earlier read-like operations (atomics posted without a
     *              wait) completed, where the NIC's targets may overlap them.
     * @return the last descriptor posted, or null if the copy was local.
     */
    private Descriptor postRead(final int node, final int region, final long offset, final int localRegion,
        final long localOffset, final int length, final boolean fence)
    {
        final RegionTable.Region local = regions.of(localRegion);
        if (node == nodeId)
        {
            local.local.buffer().putBytes((int)localOffset, regions.of(region).local.buffer(), (int)offset, length);
            return null;
        }
        final SendRing peer = peer(node);
        final int handle = regions.of(region).handles[node];
        Descriptor last = null;
        // a run longer than the VI's maximum transfer size goes as several reads, completed in posting order
        for (int done = 0; done < length; done += peer.maxTransfer)
        {
            final int chunk = Math.min(peer.maxTransfer, length - done);
            last = peer.nextSend();
            last.rdmaRead(handle, offset + done).addSegment(local.local, localOffset + done, chunk);
            last.queueFence(fencesReadLike && fence && 0 == done);
            peer.post(last, SendRing.RDMA_READ, region, chunk);
            counters.increment(Counter.RDMA_READS);
        }
        return last;
    }

    private long atomic(final SendRing peer, final Descriptor d, final int kind, final int region)
    {
        peer.post(d, kind, region, 8);
        peer.await(d);
        counters.increment(Counter.ATOMICS);
        return scratch.buffer().getLongVolatile(0);
    }

    private SendRing peer(final int node)
    {
        final SendRing peer = peers[node];
        if (null == peer)
        {
            throw new IllegalArgumentException("node " + nodeId + " has no connection to node " + node);
        }
        return peer;
    }
}
