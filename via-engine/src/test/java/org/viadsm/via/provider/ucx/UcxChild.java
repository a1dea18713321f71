package org.viadsm.via.provider.ucx;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.viadsm.via.internal.JavaProcess;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A JVM of its own for a ucx test's NICs: UCX reads {@code UCX_TLS} from the environment once per process, and a
 * NIC that aborts the process (an assertion inside UCX) must not end the test's JVM. Its standard error goes to the
 * test's.
 */
final class UcxChild
{
    /** What a child printed and how it ended. */
    record Result(String output, int exitValue)
    {
    }

    private UcxChild()
    {
    }

    /**
     * Starts a child.
     *
     * @param main       its main class.
     * @param args       its arguments.
     * @param transports {@code UCX_TLS} for it, or empty for UCX's default choice (the test's own value is removed).
     * @return the process.
     * @throws IOException if it cannot be started.
     */
    static Process start(final Class<?> main, final List<String> args, final String transports) throws IOException
    {
        final ProcessBuilder builder = JavaProcess.builder(main, List.of("-Xmx64m"), args)
            .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().remove("UCX_TLS");
        if (!transports.isEmpty())
        {
            builder.environment().put("UCX_TLS", transports);
        }
        return builder.start();
    }

    /**
     * Runs a child to its end (at most 60 s after its output closed; it is destroyed in any case).
     *
     * @param main       its main class.
     * @param args       its arguments.
     * @param transports {@code UCX_TLS} for it, or empty for UCX's default choice.
     * @return its whole standard output and its exit code.
     * @throws IOException          if it cannot be started or read.
     * @throws InterruptedException if interrupted while waiting for it.
     */
    static Result run(final Class<?> main, final List<String> args, final String transports)
        throws IOException, InterruptedException
    {
        final Process process = start(main, args, transports);
        try
        {
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child ended");
            return new Result(output, process.exitValue());
        }
        finally
        {
            process.destroyForcibly();
        }
    }
}
