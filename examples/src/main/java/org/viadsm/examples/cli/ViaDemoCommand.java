package org.viadsm.examples.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.viadsm.via.ConnectRequest;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.internal.JavaProcess;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code viadsm demo via}: two local processes connect VIs and exchange a Send, an RDMA Write with immediate data,
 * an RDMA Read and remote atomics, each printing what happened.
 */
@Command(name = "via", mixinStandardHelpOptions = true,
    description = "Shows the emulated VIA NIC between two local processes: Send/Recv, RDMA Write, RDMA Read, atomics.")
final class ViaDemoCommand implements Callable<Integer>
{
    private static final long DISCRIMINATOR = 42;
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final int GREETING_OFFSET = 0;
    private static final int WRITE_OFFSET = 1024;
    private static final int COUNTER_OFFSET = 2048;

    @Option(names = "--provider", defaultValue = "shm", description = "shm or tcp (default: ${DEFAULT-VALUE}).")
    private String provider;

    @Option(names = "--serve", hidden = true)
    private String serveAddress;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        if (null != serveAddress)
        {
            new Side("peer", serveAddress).serve();
            return 0;
        }
        // any case, as the other commands take it
        final boolean tcp = "tcp".equalsIgnoreCase(provider);
        if (!tcp && !"shm".equalsIgnoreCase(provider))
        {
            throw new ParameterException(spec.commandLine(),
                "unknown --provider '" + provider + "'; expected shm or tcp");
        }
        final String tag = Long.toString(ProcessHandle.current().pid());
        final String serverAddress = tcp ? "tcp:127.0.0.1:" + (30000 + (int)(Long.parseLong(tag) % 20000)) :
            "shm:demo" + tag + "b";
        final String clientAddress = tcp ? "tcp:127.0.0.1:0" : "shm:demo" + tag + "a";
        final Process peer = JavaProcess.builder(ViadsmCommand.class, NodeSettings.jvmOptions(),
            List.of("demo", "via", "--serve", serverAddress)).redirectErrorStream(true).start();
        final Thread echo = echo(peer);
        try
        {
            new Side("this process", clientAddress).drive(serverAddress);
        }
        finally
        {
            if (!peer.waitFor(10, TimeUnit.SECONDS))
            {
                peer.destroy();
            }
            echo.join(TimeUnit.SECONDS.toMillis(5));
        }
        return 0 == peer.exitValue() ? 0 : 1;
    }

    private static Thread echo(final Process peer)
    {
        final Thread thread = new Thread(() ->
        {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(peer.getInputStream(),
                StandardCharsets.UTF_8)))
            {
                String line;
                while (null != (line = in.readLine()))
                {
                    System.out.println("        " + line);
                }
            }
            catch (final IOException ignore)
            {
                // The peer is gone; its output ended.
            }
        }, "peer-output");
        thread.start();
        return thread;
    }

    /** One side of the demonstration: a NIC, a registered region, one VI. */
    private static final class Side
    {
        private final String who;
        private final Nic nic;
        private final ProtectionTag ptag;
        private final MemoryRegion region;
        private final Vi vi;
        private final Descriptor send = Descriptor.allocate(1);
        private final Descriptor[] receives = {Descriptor.allocate(1), Descriptor.allocate(1), Descriptor.allocate(1)};

        Side(final String who, final String address)
        {
            this.who = who;
            this.nic = Nic.open(address);
            this.ptag = nic.createPtag();
            this.region = nic.registerMemory(nic.allocateMemory(4096), MemoryAttributes.remoteAccess(ptag));
            this.vi = nic.createVi(new ViAttributes().ptag(ptag).reliabilityLevel(ReliabilityLevel.RELIABLE_RECEPTION),
                null, null);
            for (int i = 0; i < receives.length; i++)
            {
                vi.postRecv(receives[i].send().addSegment(region, 3072 + 256L * i, 256));
            }
            say("opened NIC " + nic.address() + ", registered 4096 bytes as memory handle 0x" +
                Integer.toHexString(region.handle()) + " under " + ptag);
        }

        void serve()
        {
            region.buffer().putStringWithoutLengthAscii(GREETING_OFFSET, "greetings from process " +
                ProcessHandle.current().pid());
            final ConnectRequest request = nic.connectWait(DISCRIMINATOR, TIMEOUT_NS);
            say("connection request from " + request.remoteAddress() + " (discriminator " + request.discriminator() +
                "): accepted on VI " + vi.id());
            request.accept(vi);
            region.buffer().putInt(0 + 3000, region.handle());
            post(send.reset().send().addSegment(region, 3000, 4));
            say("sent my memory handle to the client with a Send");
            final Descriptor hello = vi.recvWait(TIMEOUT_NS);
            say("received a Send of " + hello.length() + " bytes: \"" +
                region.buffer().getStringWithoutLengthAscii(3072, hello.length()) + "\"");
            final Descriptor write = vi.recvWait(TIMEOUT_NS);
            say("an RDMA Write with immediate data " + write.immediateData() + " arrived (" +
                DescriptorStatus.toString(write.status()) + "); my memory at " + WRITE_OFFSET + " now reads \"" +
                region.buffer().getStringWithoutLengthAscii(WRITE_OFFSET, write.length()) + "\"");
            final Descriptor last = vi.recvWait(TIMEOUT_NS);
            say("my last receive completed " + DescriptorStatus.toString(last.status()) + ": the client's bad RDMA " +
                "Read broke our reliable connection (VI " + vi.state() + "); my counter word is " +
                region.buffer().getLongVolatile(COUNTER_OFFSET) + ". Closing.");
            nic.close();
        }

        void drive(final String server)
        {
            connect(server);
            final Descriptor handleMessage = vi.recvWait(TIMEOUT_NS);
            final int peerHandle = region.buffer().getInt(3072);
            say("learned the peer's memory handle 0x" + Integer.toHexString(peerHandle) + " (" +
                DescriptorStatus.toString(handleMessage.status()) + ")");
            region.buffer().putStringWithoutLengthAscii(0, "hello over a VI Send");
            timed("Send of 20 bytes", send.reset().send().addSegment(region, 0, 20));
            region.buffer().putStringWithoutLengthAscii(256, "placed by RDMA Write, no receive buffer copy");
            timed("RDMA Write of 44 bytes with immediate data 7",
                send.reset().rdmaWrite(peerHandle, WRITE_OFFSET).immediateData(7).addSegment(region, 256, 44));
            timed("RDMA Read of 64 bytes, the peer's CPU not involved",
                send.reset().rdmaRead(peerHandle, GREETING_OFFSET).addSegment(region, 512, 64));
            say("read \"" + region.buffer().getStringWithoutLengthAscii(512, 64).trim() + "\"");
            for (int i = 0; i < 3; i++)
            {
                timed("fetch-and-add(+1)", send.reset().fetchAndAdd(peerHandle, COUNTER_OFFSET, 1)
                    .addSegment(region, 1024, 8));
                say("previous value " + region.buffer().getLong(1024));
            }
            timed("compare-and-swap(3 -> 100)", send.reset().compareAndSwap(peerHandle, COUNTER_OFFSET, 3, 100)
                .addSegment(region, 1024, 8));
            say("previous value " + region.buffer().getLong(1024) + ", so the swap happened");
            timed("RDMA Read beyond the peer's 4096 registered bytes (a protection error, nothing is read)",
                send.reset().rdmaRead(peerHandle, 4090).addSegment(region, 512, 64));
            say("the reliable connection broke as VIA specifies: VI state " + vi.state());
            nic.close();
        }

        private void connect(final String server)
        {
            final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
            while (true)
            {
                try
                {
                    vi.connectRequest(server, DISCRIMINATOR, TIMEOUT_NS);
                    say("connected VI " + vi.id() + " to " + server + " at reliable reception");
                    return;
                }
                catch (final ViaException ex)
                {
                    if (ViaError.NOT_REACHABLE != ex.error() && ViaError.TIMEOUT != ex.error() ||
                        System.nanoTime() - deadlineNs > 0)
                    {
                        throw ex;
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                }
            }
        }

        private void timed(final String what, final Descriptor d)
        {
            final Descriptor done = post(d);
            say(what + ": " + DescriptorStatus.toString(done.status()));
        }

        private Descriptor post(final Descriptor d)
        {
            vi.postSend(d);
            final Descriptor done = vi.sendWait(TIMEOUT_NS);
            if (null == done)
            {
                throw new IllegalStateException(who + ": no completion within 30 s");
            }
            return done;
        }

        private void say(final String line)
        {
            System.out.println("[" + who + "] " + line);
            System.out.flush();
        }
    }
}
