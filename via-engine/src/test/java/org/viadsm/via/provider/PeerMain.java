package org.viadsm.via.provider;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.engine.EngineTestAccess;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

/**
 * The other process of the two-process tests: opens a NIC (shm or tcp), fills its memory with canary bytes around
 * a remotely accessible target region, and obeys one command per line on standard input, answering on standard
 * output. Arguments: its address, the test's address, the reliability level. It starts by printing
 * {@code READY <target handle> <pid> <address>}.
 */
public final class PeerMain
{
    public static final byte CANARY = (byte)0xCA;
    public static final int MEMORY_LENGTH = 64 * 1024;
    public static final int TARGET_OFFSET = 4096;
    public static final int TARGET_LENGTH = 8192;
    public static final int BUFFERS_OFFSET = 32 * 1024;
    public static final int WINDOW = 32;
    public static final int SLOT = 64;
    public static final long TIMEOUT_NS = 30_000_000_000L;

    private final Nic nic;
    private final String parent;
    private final ByteBuffer memory;
    private final MemoryRegion target;
    private final MemoryRegion buffers;
    private final Vi vi;
    private final List<String> errors = new ArrayList<>();

    private PeerMain(final String address, final String parent, final ReliabilityLevel level)
    {
        this.nic = Nic.open(address);
        this.parent = parent;
        final ProtectionTag ptag = nic.createPtag();
        memory = nic.allocateMemory(MEMORY_LENGTH);
        for (int i = 0; i < MEMORY_LENGTH; i++)
        {
            memory.put(i, i >= TARGET_OFFSET && i < TARGET_OFFSET + TARGET_LENGTH ? 0 : CANARY);
        }
        target = nic.registerMemory(memory.slice(TARGET_OFFSET, TARGET_LENGTH), MemoryAttributes.remoteAccess(ptag));
        buffers = nic.registerMemory(memory.slice(BUFFERS_OFFSET, WINDOW * SLOT), MemoryAttributes.localOnly(ptag));
        vi = nic.createVi(new ViAttributes().ptag(ptag).reliabilityLevel(level)
            .enableRdmaRead(level.allowsRdmaRead()), null, null);
        nic.errorHandler((error, v, detail) -> errors.add(error.name()));
    }

    public static void main(final String[] args) throws Exception
    {
        final PeerMain peer = new PeerMain(args[0], args[1], ReliabilityLevel.valueOf(args[2]));
        System.out.println("READY " + peer.target.handle() + " " + ProcessHandle.current().pid() + " " +
            peer.nic.address());
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while (null != (line = in.readLine()))
        {
            final String[] words = line.trim().split(" ");
            final String answer = peer.execute(words);
            System.out.println(answer);
            if ("BYE".equals(answer))
            {
                return;
            }
        }
    }

    private String execute(final String[] words)
    {
        switch (words[0])
        {
            case "accept":
                nic.connectWait(Long.parseLong(words[1]), TIMEOUT_NS).accept(vi);
                return "CONNECTED";
            case "peer":
                vi.connectPeerRequest(parent, Long.parseLong(words[1]), TIMEOUT_NS);
                vi.connectPeerWait(TIMEOUT_NS);
                return "CONNECTED";
            case "echo":
                return "ECHOED " + echo(Integer.parseInt(words[1]));
            case "send":
                return "SENT " + sendOne(Integer.parseInt(words[1]));
            case "canary":
                return "CANARY " + canary();
            case "word":
                return "WORD " + target.buffer().getLongVolatile(Integer.parseInt(words[1]));
            case "sum":
                return "SUM " + sum();
            case "fill":
                for (int i = 0; i < TARGET_LENGTH; i++)
                {
                    target.buffer().putByte(i, (byte)(i * 7 + 3));
                }
                return "FILLED";
            case "claim":
                // claim a receive of the parent's VI as a Send would, and never complete it
                return "CLAIMED " + EngineTestAccess.claimRecv(nic, parent, Integer.parseInt(words[1]));
            case "state":
                vi.recvDone();
                return "STATE " + vi.state() + " " + errors;
            case "exit":
                nic.close();
                return "BYE";
            default:
                return "UNKNOWN " + words[0];
        }
    }

    /** Echoes {@code n} messages: each received message goes back with the same bytes and immediate data. */
    private long echo(final int n)
    {
        final Descriptor[] recvs = new Descriptor[WINDOW];
        for (int i = 0; i < WINDOW; i++)
        {
            recvs[i] = Descriptor.allocate(1).reset().send().addSegment(buffers, i * SLOT, SLOT);
            vi.postRecv(recvs[i]);
        }
        System.out.println("POSTED");
        final Descriptor[] sends = new Descriptor[WINDOW];
        for (int i = 0; i < WINDOW; i++)
        {
            sends[i] = Descriptor.allocate(1);
        }
        long echoed = 0;
        for (int k = 0; k < n; k++)
        {
            final Descriptor d = vi.recvWait(TIMEOUT_NS);
            if (null == d || d.isError())
            {
                return -echoed - 1;
            }
            final int slot = k % WINDOW;
            final int length = d.length();
            final int immediate = d.immediateData();
            if (k + WINDOW < n)
            {
                // repost before echoing: the test sends message k + WINDOW only once it has echo k
                vi.postRecv(d.reset().send().addSegment(buffers, slot * SLOT, SLOT));
            }
            if (k >= WINDOW && sends[slot] != vi.sendWait(TIMEOUT_NS))
            {
                return -echoed - 1;
            }
            vi.postSend(sends[slot].reset().send().addSegment(buffers, slot * SLOT, length).immediateData(immediate));
            echoed++;
        }
        for (int k = Math.max(0, n - WINDOW); k < n; k++)
        {
            if (null == vi.sendWait(TIMEOUT_NS))
            {
                return -echoed - 1;
            }
        }
        return echoed;
    }

    /** Sends one 64-byte message carrying {@code immediate} and waits for its completion; returns its status. */
    private int sendOne(final int immediate)
    {
        final Descriptor send = Descriptor.allocate(1).reset().send().addSegment(buffers, 0, 64)
            .immediateData(immediate);
        vi.postSend(send);
        return send == vi.sendWait(TIMEOUT_NS) ? send.status() : -1;
    }

    private String canary()
    {
        for (int i = 0; i < MEMORY_LENGTH; i++)
        {
            if ((i < TARGET_OFFSET || i >= TARGET_OFFSET + TARGET_LENGTH) && CANARY != memory.get(i))
            {
                return "bad@" + i;
            }
        }
        return "ok";
    }

    private long sum()
    {
        long sum = 0;
        for (int i = 0; i < TARGET_LENGTH; i++)
        {
            sum = sum * 31 + target.buffer().getByte(i);
        }
        return sum;
    }
}
