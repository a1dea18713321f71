package org.viadsm.examples.hosts;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * A process's output stream, copied into memory by a thread of its own, readable while the process runs.
 */
public final class Captured extends Thread
{
    private final InputStream in;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    private Captured(final InputStream in)
    {
        this.in = in;
        setDaemon(true);
    }

    /**
     * Starts copying a stream.
     *
     * @param in the stream, e.g. {@code process.getInputStream()}.
     * @return the copy.
     */
    public static Captured of(final InputStream in)
    {
        final Captured captured = new Captured(in);
        captured.start();
        return captured;
    }

    @Override
    public void run()
    {
        final byte[] buffer = new byte[8192];
        try (InputStream input = in)
        {
            int read;
            while ((read = input.read(buffer)) > 0)
            {
                synchronized (bytes)
                {
                    bytes.write(buffer, 0, read);
                }
            }
        }
        catch (final IOException ignore)
        {
            // the process went away
        }
    }

    /**
     * What arrived so far.
     *
     * @return the text.
     */
    public String text()
    {
        synchronized (bytes)
        {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    /**
     * Waits until the stream ended.
     *
     * @param timeoutMs longest wait.
     * @return the text.
     * @throws InterruptedException if interrupted.
     */
    public String await(final long timeoutMs) throws InterruptedException
    {
        join(timeoutMs);
        return text();
    }
}
