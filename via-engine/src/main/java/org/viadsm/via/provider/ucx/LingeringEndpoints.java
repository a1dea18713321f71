package org.viadsm.via.provider.ucx;

import java.util.ArrayList;
import java.util.List;

/**
 * Endpoints of one kind (the answers', the withdrawals') that stay open after their message left until their peer
 * closes its end or goes away, as each one's sink tells, or for at most a bound; at most a given number at once, the
 * oldest handed to close early beyond them. Kept in the order they close, and walked by index, as the periodic check
 * that closes them must not allocate.
 * <p>
 * <b>Note:</b> not thread-safe; used under the lock of its {@link UcxConnector}.
 *
 * @param <E> the endpoint's type.
 */
final class LingeringEndpoints<E>
{
    private final List<E> endpoints = new ArrayList<>();
    private final List<UcxEndpoints.Sink> sinks = new ArrayList<>();
    private final long[] closeAtNs;
    private final long lingerNs;

    /**
     * @param capacity the most that linger at once.
     * @param lingerNs the longest one lingers after its message left.
     */
    LingeringEndpoints(final int capacity, final long lingerNs)
    {
        this.closeAtNs = new long[capacity];
        this.lingerNs = lingerNs;
    }

    /**
     * An endpoint's message left: it lingers from now on; if as many linger as may, the oldest goes to
     * {@code closing} first.
     */
    void add(final E endpoint, final UcxEndpoints.Sink sink, final long nowNs, final List<E> closing)
    {
        if (endpoints.size() == closeAtNs.length)
        {
            closing.add(remove(0));
        }
        closeAtNs[endpoints.size()] = nowNs + lingerNs;
        endpoints.add(endpoint);
        sinks.add(sink);
    }

    /**
     * Hands the endpoints whose time is up, or whose peer closed its end or went away, to {@code closing}.
     *
     * @return true if any is.
     */
    boolean closeDue(final long nowNs, final List<E> closing)
    {
        boolean due = false;
        for (int i = endpoints.size() - 1; i >= 0; i--)
        {
            if (nowNs - closeAtNs[i] >= 0 || null != sinks.get(i).failure())
            {
                closing.add(remove(i));
                due = true;
            }
        }
        return due;
    }

    /**
     * How many linger.
     *
     * @return at most the capacity.
     */
    int size()
    {
        return endpoints.size();
    }

    /**
     * Hands every endpoint to {@code closing}; the NIC is closing.
     */
    void drainTo(final List<E> closing)
    {
        closing.addAll(endpoints);
        endpoints.clear();
        sinks.clear();
    }

    private E remove(final int i)
    {
        System.arraycopy(closeAtNs, i + 1, closeAtNs, i, endpoints.size() - i - 1);
        sinks.remove(i);
        return endpoints.remove(i);
    }
}
