package org.viadsm.via.provider.ucx;

import org.openucx.jucx.NativeLibs;

/**
 * Whether UCX can be used in this process: its libraries load, with every symbol the provider binds, and jucx's
 * native library links against them. Checked once; jucx's extracted copy of its library is deleted as soon as it is
 * loaded ({@link ExtractedLibrary}), so a process killed later leaves no file behind.
 */
final class UcxSupport
{
    private static final Throwable MISSING = check();

    private UcxSupport()
    {
    }

    /**
     * Why UCX cannot be used, or null if it can.
     */
    static Throwable missing()
    {
        return MISSING;
    }

    private static Throwable check()
    {
        final Throwable ucp = null != Ucp.missing() ? Ucp.missing() : Posix.missing();
        if (null != ucp)
        {
            return ucp;
        }
        try
        {
            NativeLibs.load();
            ExtractedLibrary.deleteLoadedCopy();
            return null;
        }
        catch (final LinkageError ex)
        {
            return ex;
        }
    }
}
