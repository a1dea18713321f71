package org.viadsm.via;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

import org.viadsm.via.internal.AgronaAccess;

/**
 * Finds the {@link NicProvider} for an address scheme.
 */
public final class NicProviders
{
    private static volatile Map<String, NicProvider> providers;

    private NicProviders()
    {
    }

    /**
     * Opens the NIC at {@code address} with the provider its scheme names.
     *
     * @param address e.g. {@code shm:node0}.
     * @param context the NIC's settings; concluded here if it is not yet.
     * @return the open NIC.
     * @throws IllegalArgumentException if the address has no scheme, no provider serves it, or a setting is
     *                                  malformed.
     */
    public static Nic open(final String address, final NicContext context)
    {
        AgronaAccess.check();
        final NicProvider provider = provider(address);
        return provider.open(address, context.conclude());
    }

    /**
     * The provider for an address.
     *
     * @param address an address with a scheme.
     * @return its provider.
     * @throws IllegalArgumentException if the address has no scheme or no provider serves it.
     */
    public static NicProvider provider(final String address)
    {
        if (null == address)
        {
            throw new IllegalArgumentException("NIC address is null");
        }
        final int colon = address.indexOf(':');
        if (colon <= 0)
        {
            throw new IllegalArgumentException(
                "NIC address '" + address + "' has no scheme; expected <scheme>:<name>, schemes: " + all().keySet());
        }
        final String scheme = address.substring(0, colon);
        final NicProvider provider = all().get(scheme);
        if (null == provider)
        {
            throw new IllegalArgumentException(
                "no NIC provider for scheme '" + scheme + "' in address '" + address + "'; available: " +
                all().keySet());
        }
        return provider;
    }

    /**
     * Every provider on the class path, by scheme.
     *
     * @return an unmodifiable view.
     */
    public static Map<String, NicProvider> all()
    {
        Map<String, NicProvider> map = providers;
        if (null == map)
        {
            final Map<String, NicProvider> found = new TreeMap<>();
            final ClassLoader loader = NicProviders.class.getClassLoader();
            for (final NicProvider provider : ServiceLoader.load(NicProvider.class, loader))
            {
                found.putIfAbsent(provider.scheme(), provider);
            }
            map = java.util.Collections.unmodifiableMap(found);
            providers = map;
        }
        return map;
    }
}
