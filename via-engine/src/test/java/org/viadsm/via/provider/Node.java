package org.viadsm.via.provider;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.viadsm.via.AsyncError;
import org.viadsm.via.Completion;
import org.viadsm.via.CompletionQueue;
import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One NIC of a test with a ptag, one allocation holding a remotely accessible region, and a record of the
 * asynchronous errors its handler saw.
 */
final class Node implements AutoCloseable
{
    static final int MEMORY_LENGTH = 64 * 1024;

    final Nic nic;
    final ProtectionTag ptag;
    final ByteBuffer memory;
    final MemoryRegion region;
    final List<String> errors = new ArrayList<>();
    // each error as "ERROR@vi: detail", in the order the handler saw them
    final List<String> details = new ArrayList<>();
    private CompletionQueue probe;

    Node(final String address)
    {
        this(address, new NicContext());
    }

    Node(final String address, final NicContext context)
    {
        this.nic = Nic.open(address, context);
        this.ptag = nic.createPtag();
        this.memory = nic.allocateMemory(MEMORY_LENGTH);
        this.region = nic.registerMemory(memory, MemoryAttributes.remoteAccess(ptag));
        nic.errorHandler((error, vi, detail) ->
        {
            synchronized (errors)
            {
                errors.add(error + (null == vi ? "" : "@" + vi.id()));
                details.add(error + (null == vi ? "" : "@" + vi.id()) + ": " + detail);
            }
        });
    }

    Vi vi(final ReliabilityLevel level)
    {
        return vi(attributes(level), null, null);
    }

    Vi vi(final ViAttributes attributes, final CompletionQueue sendCq, final CompletionQueue recvCq)
    {
        return nic.createVi(attributes, sendCq, recvCq);
    }

    ViAttributes attributes(final ReliabilityLevel level)
    {
        return new ViAttributes().ptag(ptag).reliabilityLevel(level)
            .enableRdmaRead(level != ReliabilityLevel.UNRELIABLE);
    }

    MemoryRegion register(final int offset, final int length, final boolean rdmaWrite, final boolean rdmaRead)
    {
        return nic.registerMemory(memory.duplicate().position(offset).limit(offset + length).slice(),
            new MemoryAttributes(ptag, rdmaWrite, rdmaRead));
    }

    /**
     * The errors the handler saw so far, each with its detail.
     *
     * @return {@code "ERROR@vi: detail"} strings, oldest first.
     */
    List<String> details()
    {
        synchronized (errors)
        {
            return new ArrayList<>(details);
        }
    }

    List<String> errors()
    {
        synchronized (errors)
        {
            return new ArrayList<>(errors);
        }
    }

    /**
     * Asserts that the handler sees exactly these errors within the timeout; calls into the NIC (on a completion
     * queue of its own) so that queued errors are delivered.
     */
    void awaitErrors(final List<String> expected)
    {
        final long deadlineNs = System.nanoTime() + Providers.TIMEOUT_NS;
        while (!expected.equals(deliveredErrors()) && System.nanoTime() - deadlineNs < 0)
        {
            LockSupport.parkNanos(100_000L);
        }
        assertEquals(expected, errors());
    }

    /** Asserts that the handler sees the error within the timeout. */
    void awaitError(final AsyncError error)
    {
        final long deadlineNs = System.nanoTime() + Providers.TIMEOUT_NS;
        while (!sawError(error) && System.nanoTime() - deadlineNs < 0)
        {
            deliveredErrors();
            LockSupport.parkNanos(100_000L);
        }
        assertTrue(sawError(error), error + " not in " + errors());
    }

    private List<String> deliveredErrors()
    {
        if (null == probe)
        {
            probe = nic.createCq(1);
        }
        probe.done(new Completion());
        return errors();
    }

    boolean sawError(final AsyncError error)
    {
        synchronized (errors)
        {
            for (final String e : errors)
            {
                if (e.startsWith(error.name()))
                {
                    return true;
                }
            }
            return false;
        }
    }

    @Override
    public void close()
    {
        nic.close();
    }
}
