package org.viadsm.dsm.rendezvous;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.viadsm.dsm.wire.WireException;

/**
 * A rendezvous through rank 0: for each exchange, rank 0 listens on the endpoint, every other rank connects
 * (retrying until rank 0 listens) and sends its entry, and rank 0 answers each with every rank's entries (an
 * all-gather) or its own (a gather's acknowledgement). A rank whose connection rank 0 closes unanswered (it was
 * made while rank 0 closed the previous exchange's listener) tries again until the deadline. Messages are an int
 * length, then a Kryo-encoded {@link RendezvousEntry}; a length beyond {@link RendezvousEntry#MAX_LENGTH} or a
 * malformed entry ends that connection, and rank 0 goes on accepting (a stray client cannot break the job).
 */
final class TcpRendezvous extends RankedRendezvous
{
    private static final long RETRY_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final int CONNECT_TIMEOUT_MS = 1000;
    /** Longest rank 0 waits for a connected visitor's entry, so a silent stray client cannot hold it up. */
    private static final long ADMIT_NS = TimeUnit.SECONDS.toNanos(5);

    private final InetSocketAddress endpoint;
    private final byte[] received = new byte[RendezvousEntry.MAX_LENGTH];

    TcpRendezvous(final InetSocketAddress endpoint, final int rank, final int size)
    {
        super(rank, size);
        this.endpoint = endpoint;
    }

    @Override
    public List<String> allGather(final String topic, final String value, final long timeoutNs)
    {
        final List<String> values = 0 == rank ? serve(topic, value, timeoutNs, true) :
            visit(topic, value, timeoutNs, true);
        final List<Integer> missing = missing(values);
        if (!missing.isEmpty())
        {
            throw new RendezvousException("rank 0 at " + endpoint + ": rank(s) " + missing + " did not come for '" +
                topic + "' within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s");
        }
        return values;
    }

    @Override
    public List<String> gather(final String topic, final String value, final long timeoutNs)
    {
        if (0 == rank)
        {
            return serve(topic, value, timeoutNs, false);
        }
        try
        {
            visit(topic, value, timeoutNs, false);
        }
        catch (final RendezvousException ignore)
        {
            // rank 0 gave up on this rank: nothing more to do
        }
        return List.of();
    }

    @Override
    public void retract(final String topic)
    {
        // nothing stays behind: rank 0 stops listening when an exchange ends
    }

    /** Rank 0: accepts the other ranks' entries, then answers them. */
    private List<String> serve(final String topic, final String value, final long timeoutNs, final boolean all)
    {
        final String[] values = new String[size];
        values[0] = value;
        final Socket[] visitors = new Socket[size];
        final long deadlineNs = System.nanoTime() + timeoutNs;
        try (ServerSocket server = new ServerSocket())
        {
            server.setReuseAddress(true);
            server.bind(endpoint, size);
            int arrived = 1;
            while (arrived < size)
            {
                final long leftNs = deadlineNs - System.nanoTime();
                if (leftNs <= 0)
                {
                    break;
                }
                server.setSoTimeout(timeoutMs(leftNs));
                final Socket socket;
                try
                {
                    socket = server.accept();
                }
                catch (final SocketTimeoutException ex)
                {
                    break;
                }
                final RendezvousEntry entry = admit(socket, topic, values, deadlineNs);
                if (null == entry)
                {
                    closeQuietly(socket);
                    continue;
                }
                visitors[entry.rank()] = socket;
                values[entry.rank()] = entry.value();
                arrived++;
            }
            for (int other = 1; other < size; other++)
            {
                if (null != visitors[other])
                {
                    answer(visitors[other], topic, values, all);
                }
            }
            return Arrays.asList(values);
        }
        catch (final IOException ex)
        {
            throw new RendezvousException("rank 0 cannot listen at " + endpoint + " for '" + topic + "': " + ex, ex);
        }
        finally
        {
            for (final Socket socket : visitors)
            {
                closeQuietly(socket);
            }
        }
    }

    /** Reads a visitor's entry; null if it is not a rank of this job coming for this topic (or came twice). */
    private RendezvousEntry admit(
        final Socket socket, final String topic, final String[] values, final long deadlineNs)
    {
        try
        {
            socket.setSoTimeout(timeoutMs(Math.min(ADMIT_NS, deadlineNs - System.nanoTime())));
            final RendezvousEntry entry = receive(new DataInputStream(socket.getInputStream()));
            if (!topic.equals(entry.topic()) || size != entry.size() || entry.rank() <= 0 || entry.rank() >= size ||
                null != values[entry.rank()])
            {
                System.err.println("rank 0 at " + endpoint + ": turned away " + socket.getRemoteSocketAddress() +
                    ", which came as rank " + entry.rank() + " of " + entry.size() + " for '" + entry.topic() +
                    "' (this job: " + size + " ranks, '" + topic + "')");
                return null;
            }
            return entry;
        }
        catch (final IOException | RendezvousException ex)
        {
            return null;
        }
    }

    private void answer(final Socket socket, final String topic, final String[] values, final boolean all)
    {
        try
        {
            final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            for (int other = 0; other < (all ? size : 1); other++)
            {
                send(out, new RendezvousEntry(topic, other, size, values[other]));
            }
            out.flush();
        }
        catch (final IOException ignore)
        {
            // that rank went away; it fails on its own
        }
    }

    /** A rank other than 0: connects (retrying until rank 0 listens), sends its entry, reads the answer. */
    private List<String> visit(final String topic, final String value, final long timeoutNs, final boolean all)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (true)
        {
            try (Socket socket = new Socket())
            {
                socket.connect(endpoint, Math.min(CONNECT_TIMEOUT_MS, timeoutMs(deadlineNs - System.nanoTime())));
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(timeoutMs(deadlineNs - System.nanoTime()));
                final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                send(out, new RendezvousEntry(topic, rank, size, value));
                out.flush();
                final DataInputStream in = new DataInputStream(socket.getInputStream());
                final String[] values = new String[size];
                for (int other = 0; other < (all ? size : 1); other++)
                {
                    final RendezvousEntry entry = receive(in);
                    if (!topic.equals(entry.topic()) || size != entry.size() || other != entry.rank())
                    {
                        throw new RendezvousException("rank " + rank + ": rank 0 at " + endpoint + " answered '" +
                            topic + "' with rank " + entry.rank() + " of " + entry.size() + " for '" +
                            entry.topic() + "'");
                    }
                    values[other] = entry.value();
                }
                return Arrays.asList(values);
            }
            catch (final ConnectException | NoRouteToHostException | SocketTimeoutException ex)
            {
                if (System.nanoTime() - deadlineNs >= 0)
                {
                    throw new RendezvousException("rank " + rank + " found no rank 0 at " + endpoint + " for '" +
                        topic + "' within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s: " + ex, ex);
                }
                LockSupport.parkNanos(RETRY_NS);
            }
            catch (final EOFException | SocketException ex)
            {
                // A connection made while rank 0 was closing the previous exchange's listener is reset or closed
                // unanswered: try again, as when rank 0 does not listen yet.
                if (System.nanoTime() - deadlineNs >= 0)
                {
                    throw new RendezvousException("rank " + rank + ": rank 0 at " + endpoint + " closed the " +
                        "connection for '" + topic + "' unanswered until the deadline (it turned this rank away or " +
                        "failed; see its error): " + ex, ex);
                }
                LockSupport.parkNanos(RETRY_NS);
            }
            catch (final IOException ex)
            {
                throw new RendezvousException("rank " + rank + ": rendezvous at " + endpoint + " for '" + topic +
                    "' failed: " + ex, ex);
            }
        }
    }

    private void send(final DataOutputStream out, final RendezvousEntry entry) throws IOException
    {
        final int length = codec.encode(entry);
        out.writeInt(length);
        out.write(codec.bytes(), 0, length);
    }

    private RendezvousEntry receive(final DataInputStream in) throws IOException
    {
        final int length = in.readInt();
        if (length < 0 || length > received.length)
        {
            throw new RendezvousException("a message of " + length + " bytes; at most " + received.length);
        }
        in.readFully(received, 0, length);
        try
        {
            return codec.decode(received, 0, length, RendezvousEntry.class);
        }
        catch (final WireException ex)
        {
            throw new RendezvousException("not a rendezvous entry: " + ex.getMessage(), ex);
        }
    }

    private static int timeoutMs(final long ns)
    {
        return (int)Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(ns)));
    }

    private static void closeQuietly(final Socket socket)
    {
        if (null != socket)
        {
            try
            {
                socket.close();
            }
            catch (final IOException ignore)
            {
                // closing
            }
        }
    }
}
