package org.viadsm.via.provider.ucx;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

/**
 * One end of {@link UcxPutOrderTest}, in a JVM of its own, whose {@code UCX_TLS} picks UCX's transports. Both ends
 * print {@code ADDRESS <their NIC's address> <their region's handle>}, read the other's line, and connect at the
 * reliable-reception level. Round after round, the initiator posts an RDMA Write of a new, larger value to one word
 * of the target's memory together with an operation after it, without waiting for the write's completion: an RDMA
 * Read of the word, a fetch-and-add of 0 on it, or a Send carrying the value, at whose arrival the target reads the
 * word, which must hold that value or a later, larger one. The read and the atomic must return the value written.
 * The target reposts a receive after each Send and counts them in a word that the initiator reads before a Send
 * while too few receives may be posted. Each end prints {@code OK fenced=<whether a fence ordered the writes>
 * rounds=<n>} or the first round that saw another value.
 */
public final class PutOrderMain
{
    private static final long T = TimeUnit.SECONDS.toNanos(30);
    private static final int WORD = 64;
    private static final int RECEIVED = 128;
    private static final int RECEIVES = 16;

    private PutOrderMain()
    {
    }

    /**
     * Runs one end.
     *
     * @param args {@code initiator} or {@code target}, then the number of rounds of each kind.
     * @throws IOException if standard input fails.
     */
    public static void main(final String[] args) throws IOException
    {
        final boolean initiator = "initiator".equals(args[0]);
        final int rounds = Integer.parseInt(args[1]);
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (Nic nic = Nic.open("ucx:127.0.0.1:0", new NicContext()))
        {
            final ProtectionTag tag = nic.createPtag();
            final MemoryRegion region = nic.registerMemory(nic.allocateMemory(4096),
                MemoryAttributes.remoteAccess(tag));
            final Vi vi = nic.createVi(new ViAttributes().ptag(tag)
                .reliabilityLevel(ReliabilityLevel.RELIABLE_RECEPTION).enableRdmaWrite(true).enableRdmaRead(true),
                null, null);
            System.out.println("ADDRESS " + nic.address() + " " + region.handle());
            final String[] other = in.readLine().split(" ");
            if (!initiator)
            {
                for (int i = 0; i < RECEIVES; i++)
                {
                    vi.postRecv(Descriptor.allocate(1).addSegment(region, 1024 + 8 * i, 8).userData(1024 + 8 * i));
                }
            }
            vi.connectPeerRequest(other[1], 7, T);
            vi.connectPeerWait(T);
            if (initiator)
            {
                initiate(vi, region, Integer.parseInt(other[2]), rounds);
            }
            else
            {
                receive(vi, region, rounds);
            }
            System.out.println("OK fenced=" + UcxConfiguration.fenceOrdersPuts() + " rounds=" + rounds);
            in.readLine();
        }
        catch (final IllegalStateException ex)
        {
            System.out.println(ex.getMessage());
        }
    }

    private static void initiate(final Vi vi, final MemoryRegion local, final int remote, final int rounds)
    {
        final Descriptor write = Descriptor.allocate(1);
        final Descriptor after = Descriptor.allocate(1);
        long received = 0;
        for (int round = 0; round < rounds; round++)
        {
            for (int kind = 0; kind < 3; kind++)
            {
                final long value = 3L * round + kind + 1;
                local.buffer().putLong(0, value);
                local.buffer().putLong(8, -1);
                if (2 == kind)
                {
                    received = awaitReceive(vi, local, remote, round, received, after);
                }
                vi.postSend(write.reset().rdmaWrite(remote, WORD).addSegment(local, 0, 8));
                if (0 == kind)
                {
                    vi.postSend(after.reset().rdmaRead(remote, WORD).addSegment(local, 8, 8));
                }
                else if (1 == kind)
                {
                    vi.postSend(after.reset().fetchAndAdd(remote, WORD, 0).addSegment(local, 8, 8));
                }
                else
                {
                    vi.postSend(after.reset().send().addSegment(local, 0, 8));
                }
                check(write == vi.sendWait(T) && after == vi.sendWait(T), round, kind, "completion order");
                check(!DescriptorStatus.isError(write.status()) && !DescriptorStatus.isError(after.status()), round,
                    kind, DescriptorStatus.toString(write.status()) + ", " + DescriptorStatus.toString(after.status()));
                final long seen = local.buffer().getLong(8);
                check(2 == kind || value == seen, round, kind, "saw " + seen + " where " + value + " was written");
            }
        }
    }

    /**
     * Waits until fewer of the Sends before this round's than {@link #RECEIVES} are not yet taken by the target,
     * so that a receive is posted for this round's.
     *
     * @return the Sends the target is known to have taken.
     */
    private static long awaitReceive(final Vi vi, final MemoryRegion local, final int remote, final int round,
        final long taken, final Descriptor read)
    {
        long received = taken;
        while (round - received >= RECEIVES)
        {
            vi.postSend(read.reset().rdmaRead(remote, RECEIVED).addSegment(local, 16, 8));
            check(read == vi.sendWait(T) && !DescriptorStatus.isError(read.status()), round, 2,
                "reading the receive count");
            received = local.buffer().getLong(16);
        }
        return received;
    }

    private static void receive(final Vi vi, final MemoryRegion local, final int rounds)
    {
        for (int round = 0; round < rounds; round++)
        {
            final Descriptor arrived = vi.recvWait(T);
            check(null != arrived && !DescriptorStatus.isError(arrived.status()), round, 2,
                "no Send arrived: " + (null == arrived ? "none" : DescriptorStatus.toString(arrived.status())));
            final long seen = local.buffer().getLongVolatile(WORD);
            final int at = (int)arrived.userData();
            final long sent = local.buffer().getLong(at);
            check(seen >= sent, round, 2, "the word held " + seen + " when the Send of " + sent + " arrived");
            // reposted before it is counted: a count read by the initiator promises a receive for its next Send
            vi.postRecv(arrived.reset().addSegment(local, at, 8).userData(at));
            local.buffer().putLongVolatile(RECEIVED, round + 1);
        }
    }

    private static void check(final boolean condition, final int round, final int kind, final String detail)
    {
        if (!condition)
        {
            final String[] kinds = {"read", "atomic", "send"};
            throw new IllegalStateException("FAIL round " + round + " " + kinds[kind] + ": " + detail);
        }
    }
}
