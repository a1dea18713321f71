package org.viadsm.via.provider.tcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.viadsm.via.provider.tcp.FrameLayout.HEADER_LENGTH;

/**
 * Seeded fuzzing of the tcp provider's frame decoder: streams of well-formed frames of every size up to the limit,
 * then something wrong (a length below a header or above the limit, a negative length, another version, random
 * bytes, a frame the handler cannot handle, a stream cut in the middle of a frame), arriving in random pieces.
 * Every case delivers exactly the frames before the fault, in order and intact, then ends in one clean failure of
 * the connection (or, for a cut stream, its end); the reader's buffer never grows beyond the frame limit, and
 * nothing hangs. {@code -Dviadsm.fuzz.cases=N} and {@code -Dviadsm.fuzz.seed=S} scale and reproduce a run.
 */
@Timeout(300)
class FrameDecoderFuzzTest
{
    private static final int MAX_FRAME = HEADER_LENGTH + 100_000;
    private static final int REFUSED_TYPE = 0xEE;
    private static final long CASE_HANG_NS = TimeUnit.SECONDS.toNanos(20);

    @Test
    void shouldDeliverTheFramesBeforeAFaultThenFailCleanly() throws Exception
    {
        final int cases = Integer.getInteger("viadsm.fuzz.cases", 200);
        final long seed = Long.getLong("viadsm.fuzz.seed", 20_251_125L);
        for (int i = 0; i < cases; i++)
        {
            final long caseSeed = seed * 1_000_003L + i;
            try
            {
                runCase(new Random(caseSeed));
            }
            catch (final AssertionError ex)
            {
                throw new AssertionError("case " + i + " (-Dviadsm.fuzz.seed=" + seed + ", case seed " + caseSeed +
                    "): " + ex.getMessage(), ex);
            }
        }
    }

    private static void runCase(final Random random) throws Exception
    {
        final byte[] stream = stream(random);
        final Expected expected = expected(stream);
        try (ServerSocketChannel server = ServerSocketChannel.open())
        {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel accepted = server.accept())
            {
                accepted.configureBlocking(false);
                final Recorder recorder = new Recorder();
                final TcpChannel channel = new TcpChannel(null, accepted, "fuzz", recorder);
                final Thread writer = writer(client, stream, new Random(random.nextLong()));
                final long deadlineNs = System.nanoTime() + CASE_HANG_NS;
                while (!channel.isClosed())
                {
                    if (0 == channel.poll())
                    {
                        Thread.onSpinWait();
                    }
                    assertTrue(channel.readCapacity() <= Math.max(TcpChannel.INITIAL_CAPACITY, MAX_FRAME),
                        "reader grew to " + channel.readCapacity());
                    if (System.nanoTime() - deadlineNs > 0)
                    {
                        fail("the decoder hangs with " + recorder.frames.size() + " frames of " + expected.frames);
                    }
                }
                writer.join(TimeUnit.NANOSECONDS.toMillis(CASE_HANG_NS));
                assertEquals(expected.frames, recorder.frames, "frames delivered");
                assertEquals(expected.failure, recorder.failures, "failures");
                assertEquals(!expected.failure, recorder.ended, "end of stream");
            }
        }
    }

    /** Frames, then one fault (or none, the stream ending between frames), as a writer would send them. */
    private static byte[] stream(final Random random)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int frames = random.nextInt(8);
        for (int i = 0; i < frames; i++)
        {
            bytes.writeBytes(frame(random, random.nextInt(2, 200), payloadLength(random)));
        }
        switch (random.nextInt(9))
        {
            case 0:
                bytes.writeBytes(withLength(frame(random, 16, 8), random.nextInt(HEADER_LENGTH)));
                break;
            case 1:
                bytes.writeBytes(withLength(frame(random, 17, 8), MAX_FRAME + 1 + random.nextInt(1 << 20)));
                break;
            case 2:
                bytes.writeBytes(withLength(frame(random, 17, 8), -1 - random.nextInt(Integer.MAX_VALUE)));
                break;
            case 3:
                final byte[] version = frame(random, 16, 8);
                version[FrameLayout.VERSION_OFFSET] = (byte)(FrameLayout.VERSION + 1 + random.nextInt(250));
                bytes.writeBytes(version);
                break;
            case 4:
                final byte[] garbage = new byte[random.nextInt(1, 5000)];
                random.nextBytes(garbage);
                bytes.writeBytes(garbage);
                break;
            case 5:
                bytes.writeBytes(frame(random, REFUSED_TYPE, random.nextInt(64)));
                break;
            case 6:
                final byte[] cut = frame(random, 17, payloadLength(random));
                bytes.writeBytes(Arrays.copyOf(cut, random.nextInt(cut.length)));
                break;
            case 7:
                final byte[] flipped = frame(random, 17, payloadLength(random));
                flipped[random.nextInt(HEADER_LENGTH)] ^= (byte)(1 + random.nextInt(255));
                bytes.writeBytes(flipped);
                break;
            default:
                break;
        }
        return bytes.toByteArray();
    }

    private static int payloadLength(final Random random)
    {
        switch (random.nextInt(4))
        {
            case 0:
                return 0;
            case 1:
                return random.nextInt(100);
            case 2:
                return random.nextInt(70_000);
            default:
                return MAX_FRAME - HEADER_LENGTH - random.nextInt(3);
        }
    }

    private static byte[] frame(final Random random, final int type, final int payloadLength)
    {
        final byte[] frame = new byte[HEADER_LENGTH + payloadLength];
        random.nextBytes(frame);
        final UnsafeBuffer header = new UnsafeBuffer(frame);
        new FrameFlyweight().wrap(header, 0).header(frame.length, type, random.nextInt(1 << 16),
            random.nextInt(1 << 16));
        return frame;
    }

    private static byte[] withLength(final byte[] frame, final int length)
    {
        ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).putInt(FrameLayout.LENGTH_OFFSET, length);
        return frame;
    }

    /** What the decoder must do with a stream: the same checks, in the same order, on whole bytes. */
    private static Expected expected(final byte[] stream)
    {
        final ByteBuffer bytes = ByteBuffer.wrap(stream).order(ByteOrder.LITTLE_ENDIAN);
        final List<String> frames = new ArrayList<>();
        int at = 0;
        while (stream.length - at >= HEADER_LENGTH)
        {
            final int length = bytes.getInt(at + FrameLayout.LENGTH_OFFSET);
            if (length < HEADER_LENGTH || length > MAX_FRAME || FrameLayout.VERSION != stream[at + 4])
            {
                return new Expected(frames, true);
            }
            if (stream.length - at < length)
            {
                break;
            }
            final int type = stream[at + FrameLayout.TYPE_OFFSET] & 0xFF;
            frames.add(describe(type, stream, at, length));
            if (REFUSED_TYPE == type)
            {
                return new Expected(frames, true);
            }
            at += length;
        }
        return new Expected(frames, false);
    }

    private static String describe(final int type, final byte[] bytes, final int at, final int length)
    {
        return type + "/" + length + "/" + Arrays.hashCode(Arrays.copyOfRange(bytes, at + HEADER_LENGTH, at + length));
    }

    private static Thread writer(final SocketChannel client, final byte[] stream, final Random random)
    {
        final Thread thread = new Thread(() ->
        {
            try
            {
                int at = 0;
                while (at < stream.length)
                {
                    final int piece = Math.min(stream.length - at, 1 + random.nextInt(random.nextBoolean() ? 7 : 9000));
                    final ByteBuffer buffer = ByteBuffer.wrap(stream, at, piece);
                    while (buffer.hasRemaining())
                    {
                        client.write(buffer);
                    }
                    at += piece;
                }
                client.shutdownOutput();
            }
            catch (final IOException ignore)
            {
                // the decoder closed the connection: the rest does not matter
            }
        }, "fuzz-writer");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private record Expected(List<String> frames, boolean failure)
    {
    }

    /** A connection's handler that records what it is given, and refuses one type. */
    private static final class Recorder implements TcpChannel.Handler
    {
        final List<String> frames = new ArrayList<>();
        boolean failures;
        boolean ended;

        @Override
        public int maxFrameLength()
        {
            return MAX_FRAME;
        }

        @Override
        public void onFrame(final TcpChannel channel, final FrameFlyweight header, final UnsafeBuffer buffer,
            final int payloadOffset, final int payloadLength)
        {
            final byte[] copy = new byte[HEADER_LENGTH + payloadLength];
            buffer.getBytes(payloadOffset - HEADER_LENGTH, copy);
            frames.add(describe(header.type(), copy, 0, copy.length));
            assertEquals(header.frameLength(), HEADER_LENGTH + payloadLength);
            if (REFUSED_TYPE == header.type())
            {
                throw new IllegalStateException("refused");
            }
        }

        @Override
        public void onEndOfStream(final TcpChannel channel)
        {
            ended = true;
            channel.close();
        }

        @Override
        public void onFailure(final TcpChannel channel, final String detail, final boolean protocolError)
        {
            assertTrue(protocolError && !failures, detail);
            failures = true;
        }
    }
}
