package org.viadsm.bench.apps;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which time {@code bench apps} reports per application: the time of the parallel phase where the program prints
 * one (its own clock, read on member 0), else the wall time of the application's run on member 0 (from after the
 * node joined to the end of the program, initialization included). WATER's clock counts whole seconds (the C
 * programs' {@code time(0)}), too coarse here, so WATER uses the latter.
 */
final class AppTime
{
    /** The source of the fallback time. */
    static final String RUN = "run on member 0";

    private static final String TOTAL = "Total time without initialization";
    private static final String TOTAL_REGEX = "Total time without initialization\\s*:\\s*(\\d+)";
    private static final Map<String, Source> SOURCES = Map.of(
        "fft", new Source(TOTAL, TOTAL_REGEX, 1e-6),
        "lu", new Source(TOTAL, TOTAL_REGEX, 1e-6),
        "radix", new Source(TOTAL, TOTAL_REGEX, 1e-6),
        "ocean", new Source(TOTAL + " (from the 2nd step)", TOTAL_REGEX, 1e-6),
        "sor", new Source("Iteration time", "Iteration time \\(us\\):\\s*(\\d+)", 1e-6),
        "barnes", new Source("COMPUTETIME (ms)", "COMPUTETIME\\s*=\\s*(\\d+) ms", 1e-3),
        "tsp", new Source("Search time (ms)", "Search time:\\s*(\\d+) ms", 1e-3));

    private AppTime()
    {
    }

    /**
     * Where an application's time comes from.
     *
     * @param app the application.
     * @return the line it prints, or {@link #RUN}.
     */
    static String source(final String app)
    {
        final Source source = SOURCES.get(app);
        return null == source ? RUN : source.name;
    }

    /**
     * The application's time in each of its runs in one process (one unless it ran warm too).
     *
     * @param app    the application.
     * @param output what member 0 printed, every run's output in order.
     * @param runS   the wall time of each run of the application on member 0, in s.
     * @return the time of each run in s, as many as {@code runS} has.
     * @throws IllegalStateException if the application should have printed its time in every run and did not.
     */
    static double[] seconds(final String app, final String output, final double[] runS)
    {
        final Source source = SOURCES.get(app);
        if (null == source)
        {
            return runS.clone();
        }
        final double[] seconds = new double[runS.length];
        final Matcher matcher = source.pattern.matcher(output);
        int found = 0;
        while (matcher.find())
        {
            if (found < seconds.length)
            {
                seconds[found] = Long.parseLong(matcher.group(1)) * source.scale;
            }
            found++;
        }
        if (found != seconds.length)
        {
            throw new IllegalStateException(app + " printed " + found + " '" + source.name + "' line(s) in " +
                seconds.length + " run(s)");
        }
        return seconds;
    }

    private static final class Source
    {
        final String name;
        final Pattern pattern;
        final double scale;

        Source(final String name, final String regex, final double scale)
        {
            this.name = name;
            this.pattern = Pattern.compile(regex);
            this.scale = scale;
        }
    }
}
