package org.viadsm.dsm.wire;

import java.util.List;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WireCodecTest
{
    record Point(int x, long y, String name)
    {
    }

    record Other(int a)
    {
    }

    record Named(String name)
    {
    }

    @Test
    void shouldRoundTripARecord()
    {
        final WireCodec codec = new WireCodec(128, List.of(Point.class, Other.class));
        final int length = codec.encode(new Point(3, -7L, "p\u00e9"));
        assertEquals(new Point(3, -7L, "p\u00e9"), codec.decode(codec.bytes(), 0, length, Point.class));
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        codec.encode(new Point(1, 2, "q"), buffer, 8, 64);
        assertEquals(new Point(1, 2, "q"), codec.decode(buffer, 8, 64, Point.class));
    }

    @Test
    void shouldRefuseWhatDoesNotFit()
    {
        final WireCodec codec = new WireCodec(32, List.of(Point.class));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> codec.encode(new Point(1, 2, "a name far longer than the thirty-two bytes allowed")));
        assertTrue(ex.getMessage().contains("in 32 bytes"), ex.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> codec.encode(new Point(1, 2, "abcdefgh"), new UnsafeBuffer(new byte[16]), 0, 12));
    }

    @Test
    void shouldNameAnUnexpectedTypeAndStrayBytes()
    {
        final WireCodec codec = new WireCodec(64, List.of(Point.class, Other.class));
        final int length = codec.encode(new Other(5));
        final byte[] bytes = new byte[length + 2];
        System.arraycopy(codec.bytes(), 0, bytes, 0, length);
        assertEquals("a Other message where a Point was expected",
            assertThrows(WireException.class, () -> codec.decode(bytes, 0, length, Point.class)).getMessage());
        assertEquals("a Other message followed by 2 stray bytes",
            assertThrows(WireException.class, () -> codec.decode(bytes, 0, length + 2, Other.class)).getMessage());
    }

    @Test
    void shouldRefuseAStringLongerThanItsMessageBeforeAllocatingIt()
    {
        final WireCodec codec = new WireCodec(64, List.of(Named.class));
        final int length = codec.encode(new Named("x"));
        assertEquals('x', codec.bytes()[length - 1]);
        assertEquals(1, codec.bytes()[length - 2]);
        final byte[] bytes = java.util.Arrays.copyOf(codec.bytes(), length + 4);
        // the string's length is the varint just before its one byte: claim 2^31 - 1 bytes instead
        final int at = length - 2;
        bytes[at] = (byte)0xFF;
        bytes[at + 1] = (byte)0xFF;
        bytes[at + 2] = (byte)0xFF;
        bytes[at + 3] = (byte)0xFF;
        bytes[at + 4] = (byte)0x07;
        final WireException ex = assertThrows(WireException.class, () -> codec.decode(bytes, 0, length + 4,
            Named.class));
        assertTrue(ex.getMessage().contains("a string of 2147483647 bytes"), ex.getMessage());
    }

    @Test
    void shouldDecodeRandomAndMutatedBytesIntoARecordOrAWireException()
    {
        final WireCodec codec = new WireCodec(96, List.of(Point.class, Other.class));
        final Random random = new Random(20_251_125L);
        final int valid = codec.encode(new Point(123_456, -1L << 40, "tcp:10.0.0.1:7000"));
        final byte[] template = java.util.Arrays.copyOf(codec.bytes(), valid);
        int decoded = 0;
        for (int i = 0; i < 5_000; i++)
        {
            final byte[] bytes;
            if (0 == (i & 1))
            {
                bytes = new byte[random.nextInt(97)];
                random.nextBytes(bytes);
            }
            else
            {
                bytes = java.util.Arrays.copyOf(template, random.nextInt(valid + 1));
                for (int flips = random.nextInt(4); flips >= 0 && bytes.length > 0; flips--)
                {
                    bytes[random.nextInt(bytes.length)] = (byte)random.nextInt(256);
                }
            }
            try
            {
                codec.decode(bytes, 0, bytes.length, Record.class);
                decoded++;
            }
            catch (final WireException expected)
            {
                // the only failure allowed
            }
        }
        assertTrue(decoded > 0 && decoded < 5_000, "decoded " + decoded);
    }
}
