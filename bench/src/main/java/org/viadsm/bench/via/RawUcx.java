package org.viadsm.bench.via;

import java.nio.ByteBuffer;
import java.util.HexFormat;

import org.agrona.concurrent.UnsafeBuffer;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpMemMapParams;
import org.openucx.jucx.ucp.UcpMemory;
import org.openucx.jucx.ucp.UcpParams;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucp.UcpWorkerParams;
import org.viadsm.bench.BenchCase;

/**
 * The raw baselines' side of UCX in one process, straight through jucx: a context and a thread-safe worker (as
 * the ucx provider's NIC has), cold memory UCX allocated (as the ucx provider's is, so that peers reach it
 * one-sided), and an endpoint to the other process's worker. The two processes exchange {@link #describe()} over
 * the peer's command line.
 * <p>
 * <b>Note:</b> used by one thread.
 */
final class RawUcx implements AutoCloseable
{
    private final UcpContext context;
    private final UcpWorker worker;
    private final UcpMemory memory;
    private final UnsafeBuffer buffer;
    private UcpEndpoint endpoint;

    /**
     * Opens the context and worker and maps the memory.
     *
     * @param length bytes of memory, at least one page.
     */
    RawUcx(final int length)
    {
        // configured as the ucx provider configures its NIC's context and worker, which every VI's posting thread
        // and the waits' progress share: a worker of a single thread skips UCX's worker lock in every call (a
        // fetch-and-add over shared memory took 48-50 ns of CPU on such a worker, 64-66 ns on this one)
        context = new UcpContext(new UcpParams().requestAmFeature().requestRmaFeature().requestAtomic64BitFeature()
            .requestWakeupFeature().setMtWorkersShared(true));
        worker = context.newWorker(new UcpWorkerParams().requestThreadSafety());
        memory = context.memoryMap(new UcpMemMapParams().allocate().setLength(length));
        buffer = new UnsafeBuffer(memory.getAddress(), length);
    }

    /**
     * What the other process needs to reach this one: the worker address, the memory's address and its remote key.
     *
     * @return three words.
     */
    String describe()
    {
        return hex(worker.getAddress()) + " " + memory.getAddress() + " " + hex(memory.getRemoteKeyBuffer());
    }

    /**
     * Makes the endpoint to the other process's worker.
     *
     * @param workerAddress the first word of its {@link #describe()}.
     */
    void connect(final String workerAddress)
    {
        final byte[] bytes = HexFormat.of().parseHex(workerAddress);
        final ByteBuffer address = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        // no peer error handling mode: UCX would then leave out the shared-memory transports that cannot detect a
        // dead peer, and emulate gets over TCP, which needs the target's progress (the provider's data endpoints
        // are made the same way)
        endpoint = worker.newEndpoint(new UcpEndpointParams().setUcpAddress(address)
            .setErrorHandler((failed, status, message) -> { }));
    }

    UcpWorker worker()
    {
        return worker;
    }

    UcpEndpoint endpoint()
    {
        return endpoint;
    }

    UcpMemory memory()
    {
        return memory;
    }

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * Progresses the worker until the request completes.
     *
     * @param request what a non-blocking call returned.
     * @param idle    how to wait.
     */
    void await(final UcpRequest request, final SpinParkIdle idle)
    {
        final long deadlineNs = System.nanoTime() + BenchCase.TIMEOUT_NS;
        while (!request.isCompleted())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("a jucx request did not complete within " + BenchCase.TIMEOUT_NS +
                    " ns");
            }
            idle.idle(progress());
        }
        idle.reset();
    }

    int progress()
    {
        try
        {
            return worker.progress();
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("UCX progress failed", ex);
        }
    }

    static ByteBuffer unhex(final String text)
    {
        final byte[] bytes = HexFormat.of().parseHex(text);
        return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    }

    private static String hex(final ByteBuffer buffer)
    {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public void close()
    {
        if (null != endpoint)
        {
            try
            {
                endpoint.closeNonBlockingForce();
            }
            catch (final RuntimeException ex)
            {
                // the other process left first and UCX already dropped the endpoint
            }
        }
        memory.deregister();
        worker.close();
        context.close();
    }
}
