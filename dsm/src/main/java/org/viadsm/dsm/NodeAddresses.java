package org.viadsm.dsm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;

/**
 * The checks every list of node addresses passes, whether given to a context or gathered at a rendezvous: distinct,
 * each with a provider scheme, trimmed.
 */
final class NodeAddresses
{
    private NodeAddresses()
    {
    }

    /**
     * Checks addresses.
     *
     * @throws IllegalArgumentException naming the duplicates, or the address that has no scheme.
     */
    static void check(final List<String> addresses)
    {
        if (new HashSet<>(addresses).size() != addresses.size())
        {
            throw new IllegalArgumentException("node addresses must be distinct: " + addresses);
        }
        for (final String address : addresses)
        {
            if (address.indexOf(':') <= 0)
            {
                throw new IllegalArgumentException("node address '" + address + "' has no scheme (jvm:, shm:, tcp:)");
            }
        }
    }

    /** The addresses without leading and trailing white space, as an unmodifiable list. */
    static List<String> trimmed(final List<String> addresses)
    {
        final List<String> trimmed = new ArrayList<>();
        for (final String address : addresses)
        {
            trimmed.add(address.trim());
        }
        return Collections.unmodifiableList(trimmed);
    }
}
