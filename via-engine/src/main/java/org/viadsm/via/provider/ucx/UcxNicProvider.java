package org.viadsm.via.provider.ucx;

import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.NicProvider;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.internal.HostPortAddress;

/**
 * The {@code ucx} provider: NICs over UCX, on one host or across hosts. Address {@code ucx:<host>:<port>}.
 */
public final class UcxNicProvider implements NicProvider
{
    /** The address scheme. */
    public static final String SCHEME = "ucx";

    /** What a user without the UCX library is told, in one line. */
    static final String INSTALL_HINT = "the ucx provider needs the UCX library (libucp.so.0): apt install libucx0";

    /**
     * Creates the provider; {@link java.util.ServiceLoader} calls this.
     */
    public UcxNicProvider()
    {
    }

    /**
     * Whether the UCX library can be loaded here.
     *
     * @return true if NICs of this provider can open.
     */
    public static boolean isAvailable()
    {
        return null == UcxSupport.missing();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String scheme()
    {
        return SCHEME;
    }

    /**
     * {@inheritDoc}
     *
     * @throws ViaException with {@link ViaError#ERROR_NOT_SUPPORTED} and a one-line install hint if the UCX
     *                      library is missing.
     */
    @Override
    public Nic open(final String address, final NicContext context)
    {
        final HostPortAddress parsed = UcxAddress.parse(address);
        final Throwable missing = UcxSupport.missing();
        if (null != missing)
        {
            throw new ViaException(ViaError.ERROR_NOT_SUPPORTED, INSTALL_HINT, missing);
        }
        return UcxTransport.open(address, parsed, context);
    }
}
