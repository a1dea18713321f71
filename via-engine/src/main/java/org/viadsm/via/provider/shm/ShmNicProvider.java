package org.viadsm.via.provider.shm;

import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.NicProvider;

/**
 * Serves {@code shm:<name>} addresses: NICs that reach each other through shared-memory files on one host.
 */
public final class ShmNicProvider implements NicProvider
{
    /** The address scheme. */
    public static final String SCHEME = "shm";

    /**
     * Creates the provider; found by {@link java.util.ServiceLoader}.
     */
    public ShmNicProvider()
    {
    }

    /**
     * Deletes the shared-memory files of NICs whose processes have died, e.g. nodes a launcher stopped with
     * Ctrl-C, in the directory the settings name; the next NIC opened in the directory would do it too.
     *
     * @return the number of files deleted.
     * @throws IllegalArgumentException if a setting is malformed.
     */
    public static int removeStaleFiles()
    {
        return removeStaleFiles(new NicContext());
    }

    /**
     * Deletes the shared-memory files of NICs whose processes have died in the directory of a context.
     *
     * @param context the settings, concluded here if they are not yet.
     * @return the number of files deleted.
     * @throws IllegalArgumentException if a setting is malformed.
     */
    public static int removeStaleFiles(final NicContext context)
    {
        return ShmFiles.sweep(context.conclude().shmDirectory());
    }

    @Override
    public String scheme()
    {
        return SCHEME;
    }

    @Override
    public Nic open(final String address, final NicContext context)
    {
        return ShmTransport.open(address, context);
    }
}
