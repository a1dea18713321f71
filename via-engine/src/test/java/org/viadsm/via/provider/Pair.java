package org.viadsm.via.provider;

import org.viadsm.via.NicContext;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;

/**
 * Two nodes with one connected VI each: {@code a} initiates, {@code b} is the target.
 */
final class Pair implements AutoCloseable
{
    final Node a;
    final Node b;
    final Vi viA;
    final Vi viB;

    Pair(final String scheme, final ReliabilityLevel level)
    {
        this(scheme, level, null, null);
    }

    Pair(final String scheme, final ReliabilityLevel level, final NicContext context)
    {
        this(scheme, level, null, null, context);
    }

    Pair(final String scheme, final ReliabilityLevel level, final ViAttributes attrA, final ViAttributes attrB)
    {
        this(scheme, level, attrA, attrB, new NicContext());
    }

    Pair(
        final String scheme,
        final ReliabilityLevel level,
        final ViAttributes attrA,
        final ViAttributes attrB,
        final NicContext context)
    {
        a = new Node(Providers.address(scheme), context);
        b = new Node(Providers.address(scheme), context);
        viA = a.vi(null == attrA ? a.attributes(level) : adjust(attrA, level).ptag(a.ptag), null, null);
        viB = b.vi(null == attrB ? b.attributes(level) : adjust(attrB, level).ptag(b.ptag), null, null);
        Providers.connect(viA, b.nic.address(), viB, a.nic.address());
    }

    private static ViAttributes adjust(final ViAttributes attributes, final ReliabilityLevel level)
    {
        attributes.reliabilityLevel(level);
        if (ReliabilityLevel.UNRELIABLE == level)
        {
            attributes.enableRdmaRead(false);
        }
        return attributes;
    }

    /** Calls into both NICs so that queued asynchronous errors reach the handlers. */
    void deliverErrors()
    {
        a.nic.isClosed();
        if (!viA.nic().isClosed())
        {
            viA.sendDone();
        }
        if (!viB.nic().isClosed())
        {
            viB.recvDone();
        }
    }

    @Override
    public void close()
    {
        a.close();
        b.close();
    }
}
