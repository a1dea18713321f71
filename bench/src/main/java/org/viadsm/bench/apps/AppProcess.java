package org.viadsm.bench.apps;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.viadsm.dsm.DsmStats;
import org.viadsm.examples.cli.NodeSettings;
import org.viadsm.examples.cli.ViadsmCommand;
import org.viadsm.via.internal.JavaProcess;

/**
 * One measured run: {@code viadsm run APP --provider P --nodes N --stats-json FILE ARGS} in a fresh child JVM with
 * the node JVMs' options (for {@code shm} that JVM starts one fresh JVM per node). Member 0's output and the
 * statistics file give the time; the exit code says whether the self-check passed.
 */
final class AppProcess
{
    private AppProcess()
    {
    }

    /**
     * Runs one configuration and waits for it.
     *
     * @param app       the application.
     * @param args      its arguments.
     * @param mode      the row's mode.
     * @param provider  {@code threads}, {@code jvm} or {@code shm}.
     * @param nodes     members.
     * @param dir       a directory for the run's files.
     * @param timeoutNs longest the run may take; it is then stopped and counts as failed.
     * @return the measurement, failed if the run did.
     */
    static AppMeasurement run(
        final String app, final List<String> args, final String mode, final String provider, final int nodes,
        final Path dir, final long timeoutNs)
    {
        final String tag = app + "-" + mode + "-" + nodes;
        final Path out = dir.resolve(tag + ".out");
        final Path err = dir.resolve(tag + ".err");
        final Path stats = dir.resolve(tag + ".json");
        final List<String> command = new ArrayList<>(List.of("run", app, "--provider", provider, "--nodes",
            Integer.toString(nodes), "--stats-json", stats.toString()));
        command.addAll(args);
        final ProcessBuilder builder = new ProcessBuilder(JavaProcess.command(ViadsmCommand.class.getName(),
            NodeSettings.JVM_OPTIONS, command));
        builder.redirectOutput(out.toFile()).redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
        try
        {
            final Process process = builder.start();
            if (!process.waitFor(timeoutNs, TimeUnit.NANOSECONDS))
            {
                process.destroy();
                if (!process.waitFor(10, TimeUnit.SECONDS))
                {
                    process.destroyForcibly();
                }
                return AppMeasurement.failed(app, mode, provider, nodes,
                    "did not finish within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s");
            }
            if (0 != process.exitValue())
            {
                return AppMeasurement.failed(app, mode, provider, nodes, "exited with " + process.exitValue() + ": " +
                    lastLine(Files.readString(err, StandardCharsets.UTF_8)));
            }
            final String json = Files.readString(stats, StandardCharsets.UTF_8);
            final double runS = number(json, "app_time_s");
            final double timeS = AppTime.seconds(app, Files.readString(out, StandardCharsets.UTF_8), runS);
            final DsmStats total = AppMeasurement.DSM.equals(mode) ?
                DsmStats.fromJson(json.substring(json.indexOf("\"total\":"))) : null;
            return new AppMeasurement(app, mode, provider, nodes, timeS, runS, true, null, total);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + tag, ex);
        }
        catch (final RuntimeException ex)
        {
            return AppMeasurement.failed(app, mode, provider, nodes, ex.getMessage());
        }
    }

    private static java.io.File nullDevice()
    {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    private static double number(final String json, final String name)
    {
        final String key = "\"" + name + "\":";
        final int at = json.indexOf(key);
        if (at < 0)
        {
            throw new IllegalStateException("the run's statistics lack " + name);
        }
        int end = at + key.length();
        while (end < json.length() && "-0123456789.eE".indexOf(json.charAt(end)) >= 0)
        {
            end++;
        }
        return Double.parseDouble(json.substring(at + key.length(), end));
    }

    private static String lastLine(final String text)
    {
        final String[] lines = text.strip().split("\\R");
        for (int i = lines.length - 1; i >= 0; i--)
        {
            if (!lines[i].isBlank() && !lines[i].startsWith("\tat "))
            {
                return lines[i].strip();
            }
        }
        return "no error output";
    }
}
