package org.viadsm.via.provider.ucx;

import org.viadsm.via.internal.HostPortAddress;

/**
 * Parses {@code ucx:<host>:<port>} addresses: where a NIC's UCX listener accepts the connections its VIs are set
 * up over. Port 0 picks a free port when a NIC opens.
 */
final class UcxAddress
{
    private UcxAddress()
    {
    }

    /**
     * Parses an address.
     *
     * @param address {@code ucx:<host>:<port>}.
     * @return it, its host resolved.
     * @throws IllegalArgumentException if it is malformed or its host unknown.
     */
    static HostPortAddress parse(final String address)
    {
        return HostPortAddress.parse(UcxNicProvider.SCHEME, address);
    }
}
