package org.viadsm.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code viadsm bench jmh [JMH args]}: the JMH micro-benchmarks of {@code org.viadsm.bench.jmh}, run by JMH's own
 * command line ({@code org.openjdk.jmh.Main}) with the arguments as given, e.g. {@code -l} to list them,
 * {@code Diff -f 1 -wi 3 -i 5} to run those matching a pattern, {@code -prof gc} to add a profiler.
 */
@Command(
    name = "jmh",
    description = {
        "Runs the JMH micro-benchmarks (org.viadsm.bench.jmh); arguments go to JMH.",
        "Examples:",
        "  bench jmh -l                      list them",
        "  bench jmh SharedArray -prof gc    run those matching a pattern, with a profiler",
        "  bench jmh -h                      JMH's help (--help too)",
        "Each benchmark class has its baseline as another @Benchmark method of the same class."})
public final class JmhCommand implements Callable<Integer>
{
    /**
     * Creates the command; picocli sets its arguments.
     */
    public JmhCommand()
    {
    }

    // every argument, in order, goes to JMH (picocli collects what it does not know here)
    @Unmatched
    private final List<String> args = new ArrayList<>();

    /**
     * Runs JMH; its main exits the JVM when done.
     *
     * @return 0, if JMH returns at all.
     * @throws Exception whatever JMH throws.
     */
    @Override
    public Integer call() throws Exception
    {
        // JMH's help is -h; it refuses the --help every other viadsm command takes
        args.replaceAll((arg) -> "--help".equals(arg) ? "-h" : arg);
        org.openjdk.jmh.Main.main(args.toArray(new String[0]));
        return 0;
    }
}
