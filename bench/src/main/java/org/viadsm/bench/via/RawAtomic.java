package org.viadsm.bench.via;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import org.viadsm.bench.BenchCase;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The raw baseline of a ucx atomic: {@code ucp_atomic_op_nbx} (fetch-and-add of one 64-bit word) on a jucx
 * endpoint and remote key, called through the FFM API since jucx has no atomics call; the reply lands in a
 * buffer of this object. A request UCX did not complete at once is polled with {@code ucp_request_check_status},
 * progressing the worker, and freed.
 * <p>
 * <b>Note:</b> used by one thread.
 */
@SuppressWarnings("restricted") // binding UCP through the FFM API is what a raw UCX user of Java does
final class RawAtomic
{
    private static final int ATOMIC_OP_ADD = 0;
    private static final int IN_PROGRESS = 1;
    private static final long ERR_LAST = -100;
    /** {@code ucp_request_param_t}: op_attr_mask, flags, request, cb, datatype, user_data, reply_buffer, ... */
    private static final long PARAM_LENGTH = 72;
    private static final int FIELD_DATATYPE = 1 << 3;
    private static final int FIELD_REPLY_BUFFER = 1 << 5;
    private static final long DATATYPE_LONGS = 8L << 3;

    private static final MethodHandle ATOMIC;
    private static final MethodHandle CHECK_STATUS;
    private static final MethodHandle FREE;

    static
    {
        final Linker linker = Linker.nativeLinker();
        final SymbolLookup ucp = SymbolLookup.libraryLookup("libucp.so.0", Arena.global());
        ATOMIC = linker.downcallHandle(ucp.findOrThrow("ucp_atomic_op_nbx"), FunctionDescriptor.of(JAVA_LONG,
            JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        CHECK_STATUS = linker.downcallHandle(ucp.findOrThrow("ucp_request_check_status"),
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
        FREE = linker.downcallHandle(ucp.findOrThrow("ucp_request_free"), FunctionDescriptor.ofVoid(JAVA_LONG));
    }

    private final RawUcx ucx;
    private final MemorySegment operand;
    private final MemorySegment reply;
    private final MemorySegment param;

    RawAtomic(final RawUcx ucx)
    {
        this.ucx = ucx;
        final Arena arena = Arena.ofAuto();
        operand = arena.allocate(8, 8);
        reply = arena.allocate(8, 8);
        param = arena.allocate(PARAM_LENGTH, 8);
        param.set(JAVA_INT, 0, FIELD_DATATYPE | FIELD_REPLY_BUFFER);
        param.set(JAVA_LONG, 24, DATATYPE_LONGS);
        param.set(ValueLayout.ADDRESS, 40, reply);
    }

    /**
     * Adds to a word of the peer's memory and waits for the old value.
     *
     * @param endpoint      the endpoint's native handle.
     * @param remoteAddress the word's address in the peer.
     * @param remoteKey     the peer memory's unpacked key, native handle.
     * @param delta         what to add.
     * @param idle          how to wait.
     * @return the word's value before the add.
     */
    long fetchAdd(final long endpoint, final long remoteAddress, final long remoteKey, final long delta,
        final SpinParkIdle idle)
    {
        operand.set(JAVA_LONG, 0, delta);
        try
        {
            final long request = (long)ATOMIC.invokeExact(endpoint, ATOMIC_OP_ADD, operand.address(), 1L,
                remoteAddress, remoteKey, param.address());
            if (request < 0 && request >= ERR_LAST)
            {
                throw new IllegalStateException("ucp_atomic_op_nbx failed: UCX status " + request);
            }
            if (0 != request)
            {
                final long deadlineNs = System.nanoTime() + BenchCase.TIMEOUT_NS;
                int status;
                while (IN_PROGRESS == (status = (int)CHECK_STATUS.invokeExact(request)))
                {
                    if (System.nanoTime() - deadlineNs > 0)
                    {
                        throw new IllegalStateException("an atomic did not complete within " +
                            BenchCase.TIMEOUT_NS + " ns");
                    }
                    idle.idle(ucx.progress());
                }
                idle.reset();
                FREE.invokeExact(request);
                if (0 != status)
                {
                    throw new IllegalStateException("ucp_atomic_op_nbx failed: UCX status " + status);
                }
            }
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
        return reply.get(JAVA_LONG, 0);
    }
}
