package org.viadsm.bench.apps;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.viadsm.dsm.DsmStats;
import org.viadsm.examples.cli.NodeSettings;
import org.viadsm.examples.cli.ViadsmCommand;
import org.viadsm.via.internal.JavaProcess;

/**
 * One measured run: {@code viadsm run APP --provider P --nodes N [--warm K] --stats-json FILE ARGS} in a fresh
 * child JVM with the node JVMs' options (for {@code shm} that JVM starts one fresh JVM per node). Member 0's output
 * and the statistics file give the time of every run of the application; the exit code says whether every
 * self-check passed.
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
     * @param warm      runs after the first in the same JVMs; the time is then their median.
     * @param dir       a directory for the run's files.
     * @param timeoutNs longest the run may take; it is then stopped and counts as failed.
     * @return the measurement, failed if the run did.
     */
    static AppMeasurement run(
        final String app, final List<String> args, final String mode, final String provider, final int nodes,
        final int warm, final Path dir, final long timeoutNs)
    {
        final String tag = app + "-" + mode + "-" + nodes;
        final Path out = dir.resolve(tag + ".out");
        final Path err = dir.resolve(tag + ".err");
        final Path stats = dir.resolve(tag + ".json");
        final List<String> command = new ArrayList<>(List.of("run", app, "--provider", provider, "--nodes",
            Integer.toString(nodes), "--stats-json", stats.toString()));
        if (warm > 0)
        {
            command.addAll(List.of("--warm", Integer.toString(warm)));
        }
        command.addAll(args);
        final ProcessBuilder builder = new ProcessBuilder(JavaProcess.command(ViadsmCommand.class.getName(),
            NodeSettings.jvmOptions(), command));
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
                return AppMeasurement.failed(app, mode, provider, nodes, warm,
                    "did not finish within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s");
            }
            if (0 != process.exitValue())
            {
                return AppMeasurement.failed(app, mode, provider, nodes, warm, "exited with " + process.exitValue() +
                    ": " + lastLine(Files.readString(err, StandardCharsets.UTF_8)));
            }
            final String json = Files.readString(stats, StandardCharsets.UTF_8);
            final double[] runS = numbers(json, "app_times_s");
            if (runS.length != warm + 1)
            {
                throw new IllegalStateException("the run reported " + runS.length + " run(s), not " + (warm + 1));
            }
            final double[] seconds = AppTime.seconds(app, Files.readString(out, StandardCharsets.UTF_8), runS);
            return new AppMeasurement(app, mode, provider, nodes, warm, warmTime(seconds), seconds[0], runS[0],
                json.contains("\"verified\":true"), null,
                AppMeasurement.DSM.equals(mode) ? perNode(json, Math.max(1, warm)) : null);
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
            return AppMeasurement.failed(app, mode, provider, nodes, warm, ex.getMessage());
        }
    }

    private static java.io.File nullDevice()
    {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    /** The median of the runs after the first, or the only run's time. */
    static double warmTime(final double[] seconds)
    {
        if (1 == seconds.length)
        {
            return seconds[0];
        }
        final double[] warm = Arrays.copyOfRange(seconds, 1, seconds.length);
        Arrays.sort(warm);
        final int middle = warm.length / 2;
        return 1 == warm.length % 2 ? warm[middle] : (warm[middle - 1] + warm[middle]) / 2;
    }

    /** A JSON array of numbers, {@code "name":[1.5,2]}. */
    private static double[] numbers(final String json, final String name)
    {
        final String key = "\"" + name + "\":[";
        final int at = json.indexOf(key);
        final int end = json.indexOf(']', at);
        if (at < 0 || end < 0)
        {
            throw new IllegalStateException("the run's statistics lack " + name);
        }
        return Arrays.stream(json.substring(at + key.length(), end).split(",")).mapToDouble(Double::parseDouble)
            .toArray();
    }

    /**
     * Every node's statistics, the objects of the array {@code "per_node":[{...},{...}]}, per run: the run writes
     * the sums over its {@code runs} warm runs.
     */
    private static List<DsmStats> perNode(final String json, final int runs)
    {
        final String key = "\"per_node\":[";
        final int at = json.indexOf(key);
        if (at < 0)
        {
            throw new IllegalStateException("the run's statistics lack per_node");
        }
        final List<DsmStats> nodes = new ArrayList<>();
        int from = at + key.length();
        while (from < json.length() && '{' == json.charAt(from))
        {
            final int end = json.indexOf('}', from);
            nodes.add(DsmStats.fromJson(json.substring(from, end + 1)).perRun(runs));
            from = end + 1 < json.length() && ',' == json.charAt(end + 1) ? end + 2 : end + 1;
        }
        return nodes;
    }

    private static String lastLine(final String text)
    {
        final String[] lines = text.strip().split("\\R");
        for (int i = lines.length - 1; i >= 0; i--)
        {
            // not a stack frame, nor the hint a usage error ends with (the line before it names the error)
            if (!lines[i].isBlank() && !lines[i].startsWith("\tat ") && !lines[i].startsWith("Try 'viadsm "))
            {
                return lines[i].strip();
            }
        }
        return "no error output";
    }
}
