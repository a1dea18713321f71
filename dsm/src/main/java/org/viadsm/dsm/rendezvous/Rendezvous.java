package org.viadsm.dsm.rendezvous;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

/**
 * A meeting point for the ranks of one job: each exchange, named by a topic, collects one value from every rank.
 * Ranks may arrive at different moments; every exchange waits for the others up to a timeout and then fails
 * naming the ranks that did not come.
 * <p>
 * <b>Note:</b> one thread per rank uses it.
 */
public interface Rendezvous
{
    /**
     * A rendezvous in a directory every rank can read and write (a shared file system): each rank publishes a
     * value by writing a file and renaming it into place, so no rank ever reads a partial one.
     *
     * @param directory the job's directory; created if missing, removed by rank 0 after a {@link #gather}.
     * @param rank      this rank.
     * @param size      the job's size.
     * @return the rendezvous.
     */
    static Rendezvous directory(final Path directory, final int rank, final int size)
    {
        return new FileRendezvous(directory, rank, size);
    }

    /**
     * A rendezvous at a TCP endpoint where rank 0 listens during each exchange; the other ranks connect, retrying
     * until it does.
     *
     * @param endpoint rank 0's address and port.
     * @param rank     this rank.
     * @param size     the job's size.
     * @return the rendezvous.
     */
    static Rendezvous tcp(final InetSocketAddress endpoint, final int rank, final int size)
    {
        return new TcpRendezvous(endpoint, rank, size);
    }

    /**
     * Parses a rendezvous endpoint.
     *
     * @param endpoint {@code host:port}, the host as a name or an IPv4 address.
     * @return the resolved endpoint.
     * @throws IllegalArgumentException naming what is wrong with it.
     */
    static InetSocketAddress endpoint(final String endpoint)
    {
        final int colon = endpoint.lastIndexOf(':');
        final int port;
        try
        {
            port = colon <= 0 ? -1 : Integer.parseInt(endpoint.substring(colon + 1));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("rendezvous '" + endpoint + "' must be host:port", ex);
        }
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException("rendezvous '" + endpoint + "' must be host:port, port 1 to 65535");
        }
        final InetSocketAddress address = new InetSocketAddress(endpoint.substring(0, colon), port);
        if (address.isUnresolved())
        {
            throw new IllegalArgumentException("rendezvous host '" + endpoint.substring(0, colon) + "' is unknown");
        }
        return address;
    }

    /**
     * This rank.
     *
     * @return from 0 to {@link #size()} - 1.
     */
    int rank();

    /**
     * The job's size.
     *
     * @return the number of ranks.
     */
    int size();

    /**
     * Publishes this rank's value and waits for every rank's.
     *
     * @param topic     what is exchanged; each topic once per job.
     * @param value     this rank's value.
     * @param timeoutNs longest wait for the other ranks.
     * @return every rank's value, rank 0 first.
     * @throws RendezvousException if a rank does not come in time, disagrees about the size, or sends garbage.
     */
    List<String> allGather(String topic, String value, long timeoutNs);

    /**
     * Hands this rank's value to rank 0.
     *
     * @param topic     what is exchanged; each topic once per job.
     * @param value     this rank's value.
     * @param timeoutNs longest wait.
     * @return on rank 0, every rank's value, rank 0 first, with null for a rank that did not come in time; on the
     *         others, an empty list once rank 0 has the value (or could not be reached).
     */
    List<String> gather(String topic, String value, long timeoutNs);

    /**
     * Withdraws this rank's value of an {@link #allGather}, once every rank has read it (the caller knows when,
     * e.g. after a barrier).
     *
     * @param topic the exchange.
     */
    void retract(String topic);
}
