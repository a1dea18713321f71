package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The UCP calls of the data path, bound through the FFM API: jucx has no atomics call, and its calls allocate a
 * request object per operation (jucx 1.12 also keeps a JNI global reference to every request that completes at
 * once, for good). Requests are polled with {@link #checkStatus(long)}, never called back. No downcall is
 * critical: UCX may make progress inside any of them, and so run the active-message handlers (upcalls).
 * Endpoints, workers, memory and keys come from jucx, whose {@code getNativeId()}
 * are the handles passed here.
 * <p>
 * Status pointers follow {@code ucs_status_ptr_t}: 0 completed at once, a small negative value an error status,
 * anything else a request to poll and then {@link #free(long)}.
 */
@SuppressWarnings("restricted") // binding UCP through the FFM API is the point of this class
final class Ucp
{
    /** {@code UCS_OK}. */
    static final int OK = 0;
    /** {@code UCS_INPROGRESS}. */
    static final int IN_PROGRESS = 1;
    /** {@code UCS_ERR_BUSY}: {@code ucp_worker_arm} found events to take first. */
    static final int ERR_BUSY = -15;
    /** {@code UCS_ERR_LAST}: error statuses are above it and below 0. */
    static final int ERR_LAST = -100;

    /** {@code UCP_ATOMIC_OP_ADD}. */
    static final int ATOMIC_ADD = 0;
    /** {@code UCP_ATOMIC_OP_CSWAP}. */
    static final int ATOMIC_CSWAP = 2;

    /** {@code ucp_request_param_t}: op_attr_mask, flags, request, cb, datatype, user_data, reply_buffer, ... */
    static final long PARAM_LENGTH = 72;
    static final long PARAM_MASK_OFFSET = 0;
    static final long PARAM_FLAGS_OFFSET = 4;
    static final long PARAM_DATATYPE_OFFSET = 24;
    static final long PARAM_REPLY_BUFFER_OFFSET = 40;
    static final int OP_ATTR_FIELD_DATATYPE = 1 << 3;
    static final int OP_ATTR_FIELD_FLAGS = 1 << 4;
    static final int OP_ATTR_FIELD_REPLY_BUFFER = 1 << 5;
    /** {@code ucp_dt_make_contig(1)} and {@code ucp_dt_make_contig(8)}. */
    static final long DATATYPE_BYTES = 1L << 3;
    static final long DATATYPE_LONGS = 8L << 3;
    /** {@code ucp_dt_make_iov()}: the buffer is an array of {@code ucp_dt_iov_t} (address, length). */
    static final long DATATYPE_IOV = 2;
    /** {@code UCP_AM_SEND_FLAG_EAGER}: whole messages, delivered in the handler, never rendezvous. */
    static final int AM_SEND_FLAG_EAGER = 1 << 1;
    /** {@code UCP_AM_SEND_FLAG_REPLY}: the receiver's handler is told the endpoint the message came on. */
    static final int AM_SEND_FLAG_REPLY = 1;
    /** {@code ucp_am_recv_param_t}: recv_attr (a 64-bit mask), then reply_ep when the mask has bit 0. */
    static final long AM_RECV_ATTR_FIELD_REPLY_EP = 1;
    static final long AM_RECV_REPLY_EP_OFFSET = 8;

    /** {@code ucp_am_handler_param_t}: field_mask, id, flags, cb, arg. */
    static final long AM_HANDLER_PARAM_LENGTH = 32;

    private static final String LIBRARY = "libucp.so.0";
    private static final Throwable MISSING;
    private static final MethodHandle PUT;
    private static final MethodHandle GET;
    private static final MethodHandle ATOMIC;
    private static final MethodHandle FLUSH;
    private static final MethodHandle AM_SEND;
    private static final MethodHandle SET_AM_HANDLER;
    private static final MethodHandle CHECK_STATUS;
    private static final MethodHandle FREE;
    private static final MethodHandle WORKER_GET_EFD;
    private static final MethodHandle WORKER_ARM;
    private static final MethodHandle WORKER_FENCE;

    static
    {
        Throwable missing = null;
        final MethodHandle[] handles = new MethodHandle[11];
        try
        {
            final Linker linker = Linker.nativeLinker();
            keepJvmSignals(linker);
            final SymbolLookup ucp = SymbolLookup.libraryLookup(LIBRARY, Arena.global());
            // pointers pass as 64-bit integers (the same registers), so that no call wraps an address in a segment
            final FunctionDescriptor rma = FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
                JAVA_LONG, JAVA_LONG);
            handles[0] = linker.downcallHandle(ucp.findOrThrow("ucp_put_nbx"), rma);
            handles[1] = linker.downcallHandle(ucp.findOrThrow("ucp_get_nbx"), rma);
            handles[2] = linker.downcallHandle(ucp.findOrThrow("ucp_atomic_op_nbx"), FunctionDescriptor.of(
                JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
            handles[3] = linker.downcallHandle(ucp.findOrThrow("ucp_ep_flush_nbx"),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG));
            handles[4] = linker.downcallHandle(ucp.findOrThrow("ucp_am_send_nbx"), FunctionDescriptor.of(
                JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
            handles[5] = linker.downcallHandle(ucp.findOrThrow("ucp_worker_set_am_recv_handler"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
            handles[6] = linker.downcallHandle(ucp.findOrThrow("ucp_request_check_status"),
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
            handles[7] = linker.downcallHandle(ucp.findOrThrow("ucp_request_free"),
                FunctionDescriptor.ofVoid(JAVA_LONG));
            handles[8] = linker.downcallHandle(ucp.findOrThrow("ucp_worker_get_efd"),
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
            handles[9] = linker.downcallHandle(ucp.findOrThrow("ucp_worker_arm"),
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
            handles[10] = linker.downcallHandle(ucp.findOrThrow("ucp_worker_fence"),
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        }
        catch (final Throwable ex)
        {
            missing = ex;
        }
        MISSING = missing;
        PUT = handles[0];
        GET = handles[1];
        ATOMIC = handles[2];
        FLUSH = handles[3];
        AM_SEND = handles[4];
        SET_AM_HANDLER = handles[5];
        CHECK_STATUS = handles[6];
        FREE = handles[7];
        WORKER_GET_EFD = handles[8];
        WORKER_ARM = handles[9];
        WORKER_FENCE = handles[10];
    }

    private Ucp()
    {
    }

    /**
     * UCX installs handlers for SIGSEGV, SIGBUS, SIGILL and SIGFPE when its library loads, which print a backtrace
     * and kill the process; the JVM raises SIGSEGV itself (safepoint polls, implicit null checks) and would die
     * at the first one. So, unless the user set it, {@code UCX_ERROR_SIGNALS} is emptied before the library
     * loads (UCX reads its environment then). Likewise {@code UCX_LOG_LEVEL} defaults to {@code fatal}: UCX logs
     * as errors what the provider expects and handles (a refused connection it retries, a peer that left), and
     * the provider's exceptions say what failed.
     */
    private static void keepJvmSignals(final Linker linker) throws Throwable
    {
        final MethodHandle setenv = linker.downcallHandle(linker.defaultLookup().findOrThrow("setenv"),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        try (Arena arena = Arena.ofConfined())
        {
            final int signals = (int)setenv.invokeExact(arena.allocateFrom("UCX_ERROR_SIGNALS"),
                arena.allocateFrom(""), 0);
            final int log = (int)setenv.invokeExact(arena.allocateFrom("UCX_LOG_LEVEL"),
                arena.allocateFrom("fatal"), 0);
        }
    }

    /**
     * Why the UCP library cannot be used, or null if it can.
     *
     * @return the failure to load it or one of its symbols, or null.
     */
    static Throwable missing()
    {
        return MISSING;
    }

    /**
     * Names a UCX status as UCX's header does, with UCX's own description of it, for failure messages.
     *
     * @param status      a {@code ucs_status_t}.
     * @param description what {@code ucs_status_string} says of it, or null.
     * @return e.g. "UCS_ERR_UNREACHABLE (Destination is unreachable)".
     */
    static String describe(final int status, final String description)
    {
        final String name = switch (status)
        {
            case -2 -> "UCS_ERR_NO_RESOURCE";
            case -3 -> "UCS_ERR_IO_ERROR";
            case -4 -> "UCS_ERR_NO_MEMORY";
            case -5 -> "UCS_ERR_INVALID_PARAM";
            case -6 -> "UCS_ERR_UNREACHABLE";
            case -7 -> "UCS_ERR_INVALID_ADDR";
            case -14 -> "UCS_ERR_NO_DEVICE";
            case -15 -> "UCS_ERR_BUSY";
            case -16 -> "UCS_ERR_CANCELED";
            case -20 -> "UCS_ERR_TIMED_OUT";
            case -22 -> "UCS_ERR_UNSUPPORTED";
            case -23 -> "UCS_ERR_REJECTED";
            case -24 -> "UCS_ERR_NOT_CONNECTED";
            case -25 -> "UCS_ERR_CONNECTION_RESET";
            case -80 -> "UCS_ERR_ENDPOINT_TIMEOUT";
            default -> "UCS status " + status;
        };
        return null == description || description.isEmpty() ? name : name + " (" + description + ")";
    }

    static boolean isError(final long statusPointer)
    {
        return statusPointer < 0 && statusPointer >= ERR_LAST;
    }

    static boolean isRequest(final long statusPointer)
    {
        return 0 != statusPointer && !isError(statusPointer);
    }

    static long put(final long ep, final long buffer, final long length, final long remoteAddress, final long rkey,
        final long param)
    {
        try
        {
            return (long)PUT.invokeExact(ep, buffer, length, remoteAddress, rkey, param);
        }
        catch (final Throwable ex)
        {
            throw rethrow(ex);
        }
    }

    static long get(final long ep, final long buffer, final long length, final long remoteAddress, final long rkey,
        final long param)
    {
        try
        {
            return (long)GET.invokeExact(ep, buffer, length, remoteAddress, rkey, param);
        }
        catch (final Throwable ex)
        {
            throw rethrow(ex);
        }
    }

    static long atomic(final long ep, final int opcode, final long operand, final long remoteAddress,
        final long rkey, final long param)
    {
        try
        {
            return (long)ATOMIC.invokeExact(ep, opcode, operand, 1L, remoteAddress, rkey, param);
        }
        catch (final Throwable ex)
        {
            throw rethrow(ex);
        }
    }

    static long flush(final long ep, final long param)
    {
        try
        {
            return (long)FLUSH.invokeExact(ep, param);
        }
        catch (final Throwable ex)
        {
            throw rethrow(ex);
        }
    }

    static long amSend(final long ep, final int id, final long header, final long headerLength,
        final long buffer, final long length, final long param)
    {
        try
        {
            return (long)AM_SEND.invokeExact(ep, id, header, headerLength, buffer, length, param);
        }
        catch (final Throwable ex)
        {
            throw rethrow(ex);
        }
    }

    /**
     * Sets the handler of one active-message id on a worker; its callback is an upcall stub with the signature of
     * {@code ucp_am_recv_callback_t}.
     */
    static int setAmHandler(final long worker, final MemorySegment handlerParam)
    {
        try
        {
            return (int)SET_AM_HANDLER.invokeExact(MemorySegment.ofAddress(worker), handlerParam);
        }
        catch (final Throwable ex)
        {
            throw rethrow(ex);
        }
    }

    static int checkStatus(final long request)
    {
        try
        {
            return (int)CHECK_STATUS.invokeExact(request);
        }
        catch (final Throwable ex)
        {
            throw rethrow(ex);
        }
    }

    static void free(final long request)
    {
        try
        {
            FREE.invokeExact(request);
        }
        catch (final Throwable ex)
        {
            throw rethrow(ex);
        }
    }

    /**
     * {@code ucp_worker_get_efd}: the worker's event file descriptor, which becomes readable when the worker has
     * events once it was armed.
     *
     * @param worker the worker, created with the wake-up feature.
     * @param fd     where the descriptor goes (an int).
     * @return the UCX status.
     */
    static int workerEventFd(final long worker, final long fd)
    {
        try
        {
            return (int)WORKER_GET_EFD.invokeExact(worker, fd);
        }
        catch (final Throwable ex)
        {
            throw rethrow(ex);
        }
    }

    /**
     * {@code ucp_worker_arm}: makes the worker's event file descriptor signal the next event.
     *
     * @param worker the worker.
     * @return {@link #OK} if armed, {@link #ERR_BUSY} if events wait to be taken by progress first.
     */
    static int armWorker(final long worker)
    {
        try
        {
            return (int)WORKER_ARM.invokeExact(worker);
        }
        catch (final Throwable ex)
        {
            throw rethrow(ex);
        }
    }

    /**
     * {@code ucp_worker_fence}: operations issued on the worker's endpoints after it take effect after those issued
     * before it. In UCX 1.13 it fences each of the worker's interfaces and nothing more (the weak fence), which
     * orders operations on one lane of an endpoint only; see {@link UcxConfiguration#fenceOrdersPuts()} for when
     * that is enough.
     *
     * @param worker the worker.
     * @return the UCX status.
     */
    static int fence(final long worker)
    {
        try
        {
            return (int)WORKER_FENCE.invokeExact(worker);
        }
        catch (final Throwable ex)
        {
            throw rethrow(ex);
        }
    }

    /**
     * An upcall stub for {@code ucp_am_recv_callback_t}: {@code ucs_status_t (void *arg, const void *header,
     * size_t header_length, void *data, size_t length, const ucp_am_recv_param_t *param)}.
     *
     * @param target a static method of that shape, pointers as longs: (long arg, long header, long headerLength,
     *               long data, long length, long param) returning int.
     * @param arena  the arena that keeps the stub alive.
     * @return the stub's address.
     */
    static MemorySegment amCallback(final MethodHandle target, final Arena arena)
    {
        return Linker.nativeLinker().upcallStub(target, FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), arena);
    }

    static MethodHandle findStatic(final Class<?> owner, final String name)
    {
        try
        {
            return MethodHandles.lookup().findStatic(owner, name, MethodType.methodType(int.class,
                long.class, long.class, long.class, long.class, long.class, long.class));
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    static RuntimeException rethrow(final Throwable ex)
    {
        if (ex instanceof RuntimeException)
        {
            return (RuntimeException)ex;
        }
        if (ex instanceof Error)
        {
            throw (Error)ex;
        }
        return new IllegalStateException(ex);
    }
}
