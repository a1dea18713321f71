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
     * Creates the provider; found by {@link java.util.ServiceLoader}.
     */
    public ShmNicProvider()
    {
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
