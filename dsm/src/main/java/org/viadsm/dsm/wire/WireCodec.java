package org.viadsm.dsm.wire;

import java.nio.charset.StandardCharsets;
import java.util.List;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Encodes the records nodes exchange off the data path (a hello, an allocation, a rendezvous entry) with Kryo: a
 * message is the record's registration id followed by its components. Decoding is safe against any input: it
 * never allocates more than the message's length and fails with a {@link WireException} on anything malformed,
 * truncated, or of an unexpected type.
 * <p>
 * Every node registers the same record types in the same order, which is what makes the ids agree; the first
 * registered record gets id {@link #FIRST_ID}.
 * <p>
 * <b>Note:</b> not thread-safe (Kryo is not); use one codec per thread.
 */
public final class WireCodec
{
    /** Registration id of the first record type; the ids below are Kryo's own (primitives, String). */
    public static final int FIRST_ID = 32;

    static
    {
        // Kryo's optional Unsafe support reads sun.misc.Unsafe, which JDK 24 and later warn about on every run;
        // the safe streams are all these small messages need.
        if (null == System.getProperty("kryo.unsafe"))
        {
            System.setProperty("kryo.unsafe", "false");
        }
    }

    private final Kryo kryo = new Kryo(new RegisteredClassesOnly(), null);
    private final byte[] scratch;
    private final byte[] received;
    private final Output output;
    private final Input input = new Input();

    /**
     * Creates a codec for messages of at most {@code maxLength} bytes.
     *
     * @param maxLength longest message, in bytes.
     * @param records   the record types, registered in this order (the same on every node).
     */
    public WireCodec(final int maxLength, final List<Class<? extends Record>> records)
    {
        this.scratch = new byte[maxLength];
        this.received = new byte[maxLength];
        this.output = new Output(scratch);
        kryo.register(String.class, new BoundedString(maxLength));
        int id = FIRST_ID;
        for (final Class<? extends Record> type : records)
        {
            kryo.register(type, id++);
        }
    }

    /**
     * Longest message.
     *
     * @return bytes.
     */
    public int maxLength()
    {
        return scratch.length;
    }

    /**
     * Encodes a record.
     *
     * @param message a record of a registered type.
     * @return the message's length; its bytes are in {@link #bytes()} until the next call.
     * @throws IllegalArgumentException if it is longer than {@link #maxLength()} or of an unregistered type.
     */
    public int encode(final Record message)
    {
        output.setBuffer(scratch);
        try
        {
            kryo.writeClassAndObject(output, message);
            return output.position();
        }
        catch (final KryoException | IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("cannot encode " + message + " in " + scratch.length + " bytes: " +
                ex.getMessage(), ex);
        }
    }

    /**
     * The bytes of the last message {@link #encode(Record)}d.
     *
     * @return the codec's buffer, valid up to the returned length.
     */
    public byte[] bytes()
    {
        return scratch;
    }

    /**
     * Encodes a record into a buffer as a length-prefixed message: an int length, then the message.
     *
     * @param message  a record of a registered type.
     * @param buffer   where to write it.
     * @param offset   where in the buffer.
     * @param capacity bytes available from {@code offset}, the length field included.
     * @return the bytes written.
     * @throws IllegalArgumentException if it does not fit.
     */
    public int encode(final Record message, final MutableDirectBuffer buffer, final int offset, final int capacity)
    {
        final int length = encode(message);
        if (Integer.BYTES + length > capacity)
        {
            throw new IllegalArgumentException(
                "cannot encode " + message + " in " + capacity + " bytes: it needs " + (Integer.BYTES + length));
        }
        buffer.putInt(offset, length);
        buffer.putBytes(offset + Integer.BYTES, scratch, 0, length);
        return Integer.BYTES + length;
    }

    /**
     * Decodes a message.
     *
     * @param bytes  where it is.
     * @param offset its first byte.
     * @param length its length.
     * @param type   the record type expected.
     * @param <T>    that type.
     * @return the record.
     * @throws WireException if the bytes are not exactly one message of that type.
     */
    public <T extends Record> T decode(final byte[] bytes, final int offset, final int length, final Class<T> type)
    {
        if (length < 0 || length > scratch.length || offset < 0 || offset + length > bytes.length)
        {
            throw new WireException("a message of " + length + " bytes; at most " + scratch.length + " are allowed");
        }
        final Object message;
        final int consumed;
        input.setBuffer(bytes, offset, length);
        try
        {
            message = kryo.readClassAndObject(input);
            consumed = input.position() - offset;
        }
        catch (final KryoException | IllegalArgumentException | IndexOutOfBoundsException |
            NegativeArraySizeException ex)
        {
            throw new WireException("a malformed message (" + ex.getMessage() + ")", ex);
        }
        finally
        {
            input.setBuffer(scratch, 0, 0);
        }
        if (!type.isInstance(message))
        {
            throw new WireException("a " + (null == message ? "null" : message.getClass().getSimpleName()) +
                " message where a " + type.getSimpleName() + " was expected");
        }
        if (consumed != length)
        {
            throw new WireException("a " + type.getSimpleName() + " message followed by " + (length - consumed) +
                " stray bytes");
        }
        return type.cast(message);
    }

    /**
     * Decodes a length-prefixed message written by {@link #encode(Record, MutableDirectBuffer, int, int)}.
     *
     * @param buffer   where it is.
     * @param offset   where its length field is.
     * @param capacity bytes available from {@code offset}, the length field included.
     * @param type     the record type expected.
     * @param <T>      that type.
     * @return the record.
     * @throws WireException if the bytes are not one message of that type.
     */
    public <T extends Record> T decode(
        final DirectBuffer buffer, final int offset, final int capacity, final Class<T> type)
    {
        final int length = buffer.getInt(offset);
        if (length < 0 || length > capacity - Integer.BYTES || length > scratch.length)
        {
            throw new WireException("a message claiming " + length + " bytes in a slot of " + capacity);
        }
        buffer.getBytes(offset + Integer.BYTES, received, 0, length);
        return decode(received, 0, length, type);
    }

    /**
     * Refuses a class named in a message (Kryo's class resolver would look it up, loading any class on the class
     * path) where only registration ids are expected.
     */
    private static final class RegisteredClassesOnly extends DefaultClassResolver
    {
        @Override
        protected Registration readName(final Input input)
        {
            throw new KryoException("a class named by the sender, not a registered record");
        }
    }

    /**
     * Strings as a length and UTF-8 bytes, refused before anything is allocated when the length exceeds the
     * message or the limit (Kryo's own string reader sizes its array by the length it reads).
     */
    private static final class BoundedString extends Serializer<String>
    {
        private final int maxBytes;

        BoundedString(final int maxBytes)
        {
            super(false, true);
            this.maxBytes = maxBytes;
        }

        @Override
        public void write(final Kryo kryo, final Output output, final String value)
        {
            final byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
            output.writeVarInt(bytes.length, true);
            output.writeBytes(bytes);
        }

        @Override
        public String read(final Kryo kryo, final Input input, final Class<? extends String> type)
        {
            final int length = input.readVarInt(true);
            if (length < 0 || length > maxBytes || length > input.limit() - input.position())
            {
                throw new KryoException("a string of " + length + " bytes in " +
                    (input.limit() - input.position()) + " remaining");
            }
            return new String(input.readBytes(length), StandardCharsets.UTF_8);
        }
    }
}
