package org.viadsm.via.provider.jvm;

import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.NicProvider;

/**
 * Serves {@code jvm:<name>} addresses: NICs that reach each other inside one JVM.
 */
public final class JvmNicProvider implements NicProvider
{
    /** The address scheme. */
    public static final String SCHEME = "jvm";

    /**
     * Creates the provider; found by {@link java.util.ServiceLoader}.
     */
    public JvmNicProvider()
    {
    }

    @Override
    public String scheme()
    {
        return SCHEME;
    }

    @Override
    public Nic open(final String address, final NicContext context)
    {
        return JvmTransport.open(address, context);
    }
}
