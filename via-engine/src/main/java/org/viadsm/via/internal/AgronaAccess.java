package org.viadsm.via.internal;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Checks, once, that the JVM lets Agrona 2 reach {@code jdk.internal.misc.Unsafe}, and otherwise fails with one
 * sentence that says what to add, instead of an {@link IllegalAccessError} from deep inside a buffer.
 */
public final class AgronaAccess
{
    /** The JVM option viadsm needs. */
    public static final String ADD_EXPORTS = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";

    private static volatile boolean checked;

    private AgronaAccess()
    {
    }

    /**
     * Throws a clear {@link IllegalStateException} if the JVM lacks {@link #ADD_EXPORTS}.
     *
     * @throws IllegalStateException naming the missing JVM option.
     */
    public static void check()
    {
        if (checked)
        {
            return;
        }
        try
        {
            new UnsafeBuffer(new byte[8]).putLong(0, 1L);
            checked = true;
        }
        catch (final IllegalAccessError | NoClassDefFoundError | ExceptionInInitializerError ex)
        {
            throw new IllegalStateException(
                "viadsm needs the JVM option " + ADD_EXPORTS + " (Agrona 2 uses jdk.internal.misc.Unsafe): " +
                "add it to the java command line, or start programs with ./viadsm launch", ex);
        }
    }

    /**
     * The buffer as an {@link UnsafeBuffer}: itself, or a view of its memory if it is another implementation. Keep
     * a flyweight's buffer in a field of this class: compiled code guards every call through an
     * {@link AtomicBuffer} field with a check of the receiver's class, and a flyweight on a hot path makes dozens of
     * such calls per operation.
     *
     * @param buffer the buffer, or null.
     * @return the same memory as an {@link UnsafeBuffer}, or null.
     */
    public static UnsafeBuffer unsafeBuffer(final AtomicBuffer buffer)
    {
        if (buffer instanceof final UnsafeBuffer unsafe)
        {
            return unsafe;
        }
        return null == buffer ? null : new UnsafeBuffer(buffer);
    }
}
