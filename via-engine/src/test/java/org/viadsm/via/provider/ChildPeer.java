package org.viadsm.via.provider;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.internal.JavaProcess;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drives a {@link PeerMain} in a child JVM: one command line out, one answer line back.
 */
public final class ChildPeer implements AutoCloseable
{
    private final Process process;
    private final PrintWriter out;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    public final int targetHandle;
    public final long pid;
    /** The child NIC's address, as it reports it (the bound port for tcp). */
    public final String address;

    public ChildPeer(final String address, final String parent, final ReliabilityLevel level)
    {
        this(address, parent, level, List.of());
    }

    /** A child whose JVM also takes {@code options} (system properties of its NIC's context, say). */
    public ChildPeer(final String address, final String parent, final ReliabilityLevel level,
        final List<String> options)
    {
        final List<String> jvm = new ArrayList<>(List.of("-Xmx64m", "-XX:+UseSerialGC"));
        jvm.addAll(options);
        process = JavaProcess.start(PeerMain.class, jvm, List.of(address, parent, level.name()));
        out = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        final Thread reader = new Thread(() ->
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
            catch (final java.io.IOException ignore)
            {
                // the child is gone; expect() times out
            }
        }, "child-peer-reader");
        reader.setDaemon(true);
        reader.start();
        final String[] ready = expect("READY").split(" ");
        targetHandle = Integer.parseInt(ready[1]);
        pid = Long.parseLong(ready[2]);
        this.address = ready[3];
    }

    /** Sends a command and returns the answer, which must start with {@code prefix}. */
    public String command(final String command, final String prefix)
    {
        out.println(command);
        return expect(prefix);
    }

    /** Sends a command without waiting for its answer. */
    public void send(final String command)
    {
        out.println(command);
    }

    public String expect(final String prefix)
    {
        final String line;
        try
        {
            line = lines.poll(60, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + prefix, ex);
        }
        assertNotNull(line, "no answer from the child (alive=" + process.isAlive() + "), expected " + prefix);
        assertTrue(line.startsWith(prefix), "expected " + prefix + " but the child said: " + line);
        return line;
    }

    public void kill()
    {
        process.destroyForcibly();
        try
        {
            assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close()
    {
        if (process.isAlive())
        {
            out.println("exit");
            try
            {
                if (process.waitFor(10, TimeUnit.SECONDS))
                {
                    return;
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            kill();
        }
    }
}
