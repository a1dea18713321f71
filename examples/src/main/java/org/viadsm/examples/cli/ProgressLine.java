package org.viadsm.examples.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import org.viadsm.examples.runtime.CFormat;

/**
 * A status line on the terminal while a run is in progress: what runs, for how long, how many nodes have
 * finished. Drawn on standard error, only when the JVM has a console; output written through
 * {@link #wrap(PrintStream)} first clears the line, so the two never mix.
 */
final class ProgressLine implements AutoCloseable
{
    private static final long PERIOD_MS = 250;
    private static final String CLEAR = "\r\u001b[K";

    private final PrintStream terminal;
    private final String label;
    private final IntSupplier finished;
    private final int nodes;
    private final long startNs = System.nanoTime();
    private final Thread drawer;
    private volatile boolean running = true;
    private boolean drawn;

    private ProgressLine(final PrintStream terminal, final String label, final IntSupplier finished, final int nodes)
    {
        this.terminal = terminal;
        this.label = label;
        this.finished = finished;
        this.nodes = nodes;
        this.drawer = null == terminal ? null : new Thread(this::draw, "viadsm-progress");
        if (null != drawer)
        {
            drawer.setDaemon(true);
            drawer.start();
        }
    }

    /**
     * Starts the line if there is a terminal.
     *
     * @param label    what runs, e.g. {@code fft on 4 shm nodes}.
     * @param finished how many nodes have finished.
     * @param nodes    how many nodes there are.
     * @return the line; a no-op without a terminal.
     */
    static ProgressLine start(final String label, final IntSupplier finished, final int nodes)
    {
        return new ProgressLine(null == System.console() ? null : System.err, label, finished, nodes);
    }

    /**
     * A stream whose writes first clear the status line.
     *
     * @param out where the output goes.
     * @return the wrapping stream, or {@code out} itself without a terminal.
     */
    PrintStream wrap(final PrintStream out)
    {
        if (null == terminal)
        {
            return out;
        }
        return new PrintStream(new OutputStream()
        {
            @Override
            public void write(final int b)
            {
                write(new byte[] {(byte)b}, 0, 1);
            }

            @Override
            public void write(final byte[] bytes, final int offset, final int length)
            {
                synchronized (ProgressLine.this)
                {
                    clear();
                    out.write(bytes, offset, length);
                    out.flush();
                }
            }
        }, true, StandardCharsets.UTF_8);
    }

    @Override
    public void close()
    {
        running = false;
        if (null != drawer)
        {
            drawer.interrupt();
            try
            {
                drawer.join(TimeUnit.SECONDS.toMillis(1));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            synchronized (this)
            {
                clear();
            }
        }
    }

    private void draw()
    {
        while (running)
        {
            synchronized (this)
            {
                final double seconds = (System.nanoTime() - startNs) / 1e9;
                terminal.print(CLEAR + CFormat.format("%s  %.1f s  %d/%d nodes done", label, seconds,
                    finished.getAsInt(), nodes));
                terminal.flush();
                drawn = true;
            }
            try
            {
                Thread.sleep(PERIOD_MS);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
        }
    }

    private void clear()
    {
        if (drawn)
        {
            terminal.print(CLEAR);
            terminal.flush();
            drawn = false;
        }
    }
}
