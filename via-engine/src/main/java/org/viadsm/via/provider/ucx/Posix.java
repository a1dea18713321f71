package org.viadsm.via.provider.ucx;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The few C library calls a sleeping thread of the provider needs, bound through the FFM API: an event file
 * descriptor of its own that other threads write to wake it, and {@code ppoll} on it and the UCX worker's event file
 * descriptor. Pointers pass as 64-bit integers. A call that fails returns -1, as in C; nobody needs errno.
 */
@SuppressWarnings("restricted") // binding the C library through the FFM API is the point of this class
final class Posix
{
    /** {@code POLLIN}. */
    static final short POLL_IN = 1;
    /** {@code struct pollfd}: int fd, short events, short revents. */
    static final long POLL_FD_LENGTH = 8;
    /** {@code struct timespec}: long tv_sec, long tv_nsec. */
    static final long TIMESPEC_LENGTH = 16;

    private static final int EFD_CLOEXEC = 0x80000;
    private static final int EFD_NONBLOCK = 0x800;

    private static final Throwable MISSING;
    private static final MethodHandle EVENTFD;
    private static final MethodHandle PPOLL;
    private static final MethodHandle READ;
    private static final MethodHandle WRITE;
    private static final MethodHandle CLOSE;

    static
    {
        Throwable missing = null;
        final MethodHandle[] handles = new MethodHandle[5];
        try
        {
            final Linker linker = Linker.nativeLinker();
            final SymbolLookup libc = linker.defaultLookup();
            handles[0] = linker.downcallHandle(libc.findOrThrow("eventfd"),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
            handles[1] = linker.downcallHandle(libc.findOrThrow("ppoll"),
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
            handles[2] = linker.downcallHandle(libc.findOrThrow("read"),
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));
            handles[3] = linker.downcallHandle(libc.findOrThrow("write"),
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));
            handles[4] = linker.downcallHandle(libc.findOrThrow("close"), FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        }
        catch (final Throwable ex)
        {
            missing = ex;
        }
        MISSING = missing;
        EVENTFD = handles[0];
        PPOLL = handles[1];
        READ = handles[2];
        WRITE = handles[3];
        CLOSE = handles[4];
    }

    private Posix()
    {
    }

    /**
     * Why the calls cannot be bound here (a C library without {@code eventfd} or {@code ppoll}), or null.
     *
     * @return the failure, or null.
     */
    static Throwable missing()
    {
        return MISSING;
    }

    /**
     * A non-blocking event file descriptor, closed on exec.
     *
     * @return the descriptor, or -1.
     */
    static int eventFd()
    {
        try
        {
            return (int)EVENTFD.invokeExact(0, EFD_NONBLOCK | EFD_CLOEXEC);
        }
        catch (final Throwable ex)
        {
            throw Ucp.rethrow(ex);
        }
    }

    /**
     * {@code ppoll(fds, count, timeout, NULL)}.
     *
     * @return descriptors ready, 0 on timeout, -1 on an error or a signal.
     */
    static int ppoll(final long fds, final long count, final long timespec)
    {
        try
        {
            return (int)PPOLL.invokeExact(fds, count, timespec, 0L);
        }
        catch (final Throwable ex)
        {
            throw Ucp.rethrow(ex);
        }
    }

    static long read(final int fd, final long buffer, final long length)
    {
        try
        {
            return (long)READ.invokeExact(fd, buffer, length);
        }
        catch (final Throwable ex)
        {
            throw Ucp.rethrow(ex);
        }
    }

    static long write(final int fd, final long buffer, final long length)
    {
        try
        {
            return (long)WRITE.invokeExact(fd, buffer, length);
        }
        catch (final Throwable ex)
        {
            throw Ucp.rethrow(ex);
        }
    }

    static void close(final int fd)
    {
        try
        {
            final int ignored = (int)CLOSE.invokeExact(fd);
        }
        catch (final Throwable ex)
        {
            throw Ucp.rethrow(ex);
        }
    }
}
