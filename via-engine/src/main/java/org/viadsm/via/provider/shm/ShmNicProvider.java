package org.viadsm.via.provider.shm;

import org.viadsm.via.Nic;
import org.viadsm.via.spi.NicProvider;

/**
 * Serves {@code shm:<name>} addresses: NICs that reach each other through shared-memory files on one host.
 */
public final class ShmNicProvider implements NicProvider
{
    /** The address scheme. */
    public static final String SCHEME = "shm";

    /**
     * System property: whether waits sleep on doorbells that completers in other processes ring (true, the
     * default), or poll with backoff as a process cannot unpark another's threads (false).
     */
    public static final String DOORBELL_PROP_NAME = "viadsm.shm.doorbell";

    /**
     * Creates the provider; found by {@link java.util.ServiceLoader}.
     */
    public ShmNicProvider()
    {
    }

    /**
     * Deletes the shared-memory files of NICs whose processes have died, e.g. nodes a launcher stopped with
     * Ctrl-C; the next NIC opened in the directory would do it too.
     *
     * @return the number of files deleted.
     */
    public static int removeStaleFiles()
    {
        return ShmFiles.sweep(org.viadsm.via.engine.SparseMemory.directory());
    }

    @Override
    public String scheme()
    {
        return SCHEME;
    }

    @Override
    public Nic open(final String address)
    {
        return ShmNic.open(address);
    }
}
