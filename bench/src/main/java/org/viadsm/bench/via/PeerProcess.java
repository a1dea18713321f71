package org.viadsm.bench.via;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.viadsm.bench.BenchCase;
import org.viadsm.via.internal.JavaProcess;

/**
 * The initiator's handle on the peer process: a child JVM running {@link PeerMain}, driven by one command line
 * out and answer lines back. The child gets this JVM's {@code viadsm.*} and {@code agrona.*} system properties, so
 * both sides wait and check the same way.
 */
final class PeerProcess implements AutoCloseable
{
    private final Process process;
    private final PrintWriter out;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private PeerProcess(final Process process)
    {
        this.process = process;
        this.out = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        final Thread reader = new Thread(this::readLines, "bench-peer-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts the child JVM and waits until it is ready for commands.
     *
     * @return the peer.
     */
    static PeerProcess start()
    {
        final PeerProcess peer = new PeerProcess(
            JavaProcess.start(PeerMain.class, List.of("-Xms64m", "-Xmx256m"), List.of()));
        try
        {
            peer.expect(PeerMain.READY);
        }
        catch (final RuntimeException ex)
        {
            peer.close();
            throw ex;
        }
        return peer;
    }

    /**
     * Sends a command and waits for its answer.
     *
     * @param command the command line.
     * @param prefix  how the answer must start.
     * @return the answer's words after the prefix.
     */
    String[] command(final String command, final String prefix)
    {
        send(command);
        return expect(prefix);
    }

    /**
     * Sends a command without waiting.
     *
     * @param command the command line.
     */
    void send(final String command)
    {
        out.println(command);
    }

    /**
     * Waits for the next answer line.
     *
     * @param prefix how it must start.
     * @return its words after the prefix.
     * @throws IllegalStateException if the child answers otherwise, dies, or says nothing for a long time.
     */
    String[] expect(final String prefix)
    {
        final String line;
        try
        {
            line = lines.poll(BenchCase.TIMEOUT_NS, TimeUnit.NANOSECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the peer's " + prefix, ex);
        }
        if (null == line)
        {
            throw new IllegalStateException("no " + prefix + " from the peer process (alive=" + process.isAlive() +
                ") within " + BenchCase.TIMEOUT_NS / 1_000_000 + " ms");
        }
        final String[] words = line.trim().split(" ");
        if (!prefix.equals(words[0]))
        {
            throw new IllegalStateException("expected " + prefix + " from the peer process, got: " + line);
        }
        final String[] rest = new String[words.length - 1];
        System.arraycopy(words, 1, rest, 0, rest.length);
        return rest;
    }

    /**
     * Runs the initiator of a ping-pong whose responder the peer has just been told to start: waits for its GO,
     * runs, and waits for its DONE.
     *
     * @param initiator  this side.
     * @param warmup     untimed round trips.
     * @param iterations timed round trips.
     * @param budgetNs   time budget of the run.
     * @return the round-trip times in ns.
     */
    Histogram initiate(final PingPong initiator, final int warmup, final int iterations, final long budgetNs)
    {
        expect("GO");
        final Histogram histogram = initiator.initiate(warmup, iterations, budgetNs);
        expect("DONE");
        return histogram;
    }

    private void readLines()
    {
        try (BufferedReader in = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
        {
            String line;
            while (null != (line = in.readLine()))
            {
                lines.add(line);
            }
        }
        catch (final IOException ignore)
        {
            // the child is gone; expect() reports it
        }
    }

    @Override
    public void close()
    {
        try
        {
            if (process.isAlive())
            {
                out.println(PeerMain.EXIT);
                if (!process.waitFor(10, TimeUnit.SECONDS))
                {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
