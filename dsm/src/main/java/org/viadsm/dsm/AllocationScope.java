package org.viadsm.dsm;

/**
 * The arrays a node allocates while the scope is open: {@link #close()} frees every one of them not freed yet,
 * newest first, as {@link Dsm#free(SharedArray)} would. Scopes nest; each frees only what was allocated after it
 * opened.
 * <pre>{@code
 * for (int run = 0; run < runs; run++)
 * {
 *     try (AllocationScope _ = dsm.allocationScope())
 *     {
 *         SharedDoubleArray grid = dsm.allocDoubles("grid", n);   // the same name every run
 *         ...
 *     }                                                           // grid freed on every node
 * }
 * }</pre>
 * Opening a scope is local; closing it is collective, like the frees it makes: every node closes its scopes in the
 * same order, having allocated the same arrays in them.
 * <p>
 * <b>Note:</b> like its {@link Dsm}, used by one thread at a time.
 */
public final class AllocationScope implements AutoCloseable
{
    private final Allocations allocations;
    private final long mark;
    private boolean closed;

    AllocationScope(final Allocations allocations, final long mark)
    {
        this.allocations = allocations;
        this.mark = mark;
    }

    /**
     * Frees, newest first, every array allocated since the scope opened and still live. Idempotent.
     *
     * @throws DsmException if nodes freed differently, or a node fails meanwhile.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            allocations.freeAfter(mark);
        }
    }
}
