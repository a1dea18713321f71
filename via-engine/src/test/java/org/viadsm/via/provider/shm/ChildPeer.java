package org.viadsm.via.provider.shm;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.internal.JavaProcess;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drives a {@link ShmPeerMain} in a child JVM: one command line out, one answer line back.
 */
final class ChildPeer implements AutoCloseable
{
    private final Process process;
    private final PrintWriter out;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    final int targetHandle;
    final long pid;

    ChildPeer(final String address, final String parent, final ReliabilityLevel level)
    {
        process = JavaProcess.start(ShmPeerMain.class, List.of("-Xmx64m", "-XX:+UseSerialGC"),
            List.of(address, parent, level.name()));
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
    }

    /** Sends a command and returns the answer, which must start with {@code prefix}. */
    String command(final String command, final String prefix)
    {
        out.println(command);
        return expect(prefix);
    }

    /** Sends a command without waiting for its answer. */
    void send(final String command)
    {
        out.println(command);
    }

    String expect(final String prefix)
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

    void kill()
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
