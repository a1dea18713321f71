package org.viadsm.bench.jmh;

import java.util.concurrent.TimeUnit;

import org.agrona.BufferUtil;
import org.agrona.CloseHelper;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

/**
 * One 64 B Send through the jvm provider on one thread, between two VIs of one NIC connected to each other: post
 * a receive, post the send (which moves the bytes and completes both descriptors), take both back. Baseline: one
 * 64 B message written to and read from an Agrona one-to-one ring on the same thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED"})
public class DescriptorBenchmark implements MessageHandler
{
    private static final int LENGTH = 64;
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private Nic nic;
    private MemoryRegion region;
    private Vi sender;
    private Vi receiver;
    private final Descriptor send = Descriptor.allocate(1);
    private final Descriptor recv = Descriptor.allocate(1);
    private OneToOneRingBuffer ring;
    private UnsafeBuffer source;
    private long received;

    /**
     * Creates the benchmark state; JMH sets it up.
     */
    public DescriptorBenchmark()
    {
    }

    /**
     * Opens the NIC and connects its two VIs; makes the ring.
     */
    @Setup
    public void setUp()
    {
        nic = Nic.open("jvm:jmh" + ProcessHandle.current().pid() + "d" + System.nanoTime());
        final ProtectionTag ptag = nic.createPtag();
        region = nic.registerMemory(nic.allocateMemory(4096), MemoryAttributes.localOnly(ptag));
        final ViAttributes attributes = new ViAttributes().ptag(ptag)
            .reliabilityLevel(ReliabilityLevel.RELIABLE_RECEPTION);
        sender = nic.createVi(attributes, null, null);
        receiver = nic.createVi(attributes, null, null);
        sender.connectPeerRequest(nic.address(), 1, TIMEOUT_NS);
        receiver.connectPeerRequest(nic.address(), 1, TIMEOUT_NS);
        sender.connectPeerWait(TIMEOUT_NS);
        receiver.connectPeerWait(TIMEOUT_NS);
        ring = new OneToOneRingBuffer(new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            64 * 1024 + RingBufferDescriptor.TRAILER_LENGTH, 64)));
        source = new UnsafeBuffer(BufferUtil.allocateDirectAligned(LENGTH, 64));
    }

    /**
     * Closes the NIC.
     */
    @TearDown
    public void tearDown()
    {
        CloseHelper.close(nic);
    }

    /**
     * Post receive, post send, take both back.
     *
     * @return the received length.
     */
    @Benchmark
    public int viaPostComplete()
    {
        receiver.postRecv(recv.reset().send().addSegment(region, 1024, LENGTH));
        sender.postSend(send.reset().send().addSegment(region, 0, LENGTH));
        final Descriptor sent = sender.sendDone();
        final Descriptor got = receiver.recvDone();
        if (null == sent || null == got)
        {
            throw new IllegalStateException("a descriptor did not complete in postSend");
        }
        return got.length();
    }

    /**
     * Baseline: ring write and read.
     *
     * @return what the handler saw.
     */
    @Benchmark
    public long ringOfferPoll()
    {
        // a read that meets the padding record at the ring's end returns 0; the message is then at the start
        if (!ring.write(1, source, 0, LENGTH) || 0 == ring.read(this, 1) && 0 == ring.read(this, 1))
        {
            throw new IllegalStateException("ring write or read failed");
        }
        return received;
    }

    @Override
    public void onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        received += length;
    }
}
