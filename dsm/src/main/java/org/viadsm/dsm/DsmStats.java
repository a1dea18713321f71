package org.viadsm.dsm;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.viadsm.consistency.Counter;

/**
 * A snapshot of one node's statistics (or the sum over several nodes), one value per {@link Statistic}: faults,
 * pages fetched, twins, diffs, intervals and write notices, lock acquires, barriers, RDMA operations and messages,
 * the pages the node is home of, and where its time went. Immutable.
 */
public final class DsmStats
{
    private static final Statistic[] STATISTICS = Statistic.values();
    private static final Statistic[] OF_COUNTER = ofCounter();
    private static final Statistic[] TIMES = {
        Statistic.READ_FAULT_NS, Statistic.WRITE_FAULT_NS, Statistic.RELEASE_NS, Statistic.LOCK_WAIT_NS,
        Statistic.BARRIER_WAIT_NS, Statistic.SEMAPHORE_WAIT_NS};

    private final int nodeId;
    private final long[] values;

    private DsmStats(final int nodeId, final long[] values)
    {
        this.nodeId = nodeId;
        this.values = values;
    }

    /**
     * A node's statistics from its protocol counters.
     *
     * @param nodeId    the node.
     * @param counters  the counters' values, indexed by {@link Counter#ordinal()}.
     * @param elapsedNs time since the node joined or reset its statistics, or in its measured phases.
     * @param homes     pages the node is home of.
     * @param phases    the measured phases the counters and the time are the sums over; 0 for none.
     * @param cpuNs     CPU time of the thread that marked the measured phases, in them; 0 for none.
     * @param jitNs     time the node's JVM spent compiling in the measured phases (its compiler threads' CPU
     *                  time where the system gives it); 0 for none.
     * @return the statistics.
     */
    static DsmStats of(
        final int nodeId, final long[] counters, final long elapsedNs, final long homes, final int phases,
        final long cpuNs, final long jitNs)
    {
        final long[] values = new long[STATISTICS.length];
        for (int i = 0; i < counters.length; i++)
        {
            values[OF_COUNTER[i].ordinal()] = counters[i];
        }
        long computeNs = elapsedNs;
        for (final Statistic time : TIMES)
        {
            computeNs -= values[time.ordinal()];
        }
        values[Statistic.COMPUTE_NS.ordinal()] = Math.max(0, computeNs);
        values[Statistic.HOMES.ordinal()] = homes;
        values[Statistic.MEASURED_PHASES.ordinal()] = phases;
        values[Statistic.PHASE_CPU_NS.ordinal()] = cpuNs;
        values[Statistic.PHASE_JIT_NS.ordinal()] = jitNs;
        return new DsmStats(nodeId, values);
    }

    /**
     * The mean per run of statistics summed over {@code runs} runs of a program: each count, time and measured
     * phase count divided by {@code runs} (rounded down), the homes as they are.
     *
     * @param runs how many runs these statistics sum, at least 1.
     * @return the statistics of one run, on average.
     * @throws IllegalArgumentException if {@code runs} is below 1.
     */
    public DsmStats perRun(final int runs)
    {
        if (runs < 1)
        {
            throw new IllegalArgumentException("runs must be at least 1, not " + runs);
        }
        final long[] mean = new long[values.length];
        for (int i = 0; i < mean.length; i++)
        {
            mean[i] = values[i] / runs;
        }
        mean[Statistic.HOMES.ordinal()] = values[Statistic.HOMES.ordinal()];
        return new DsmStats(nodeId, mean);
    }

    /**
     * Sums the statistics of several nodes.
     *
     * @param nodes the nodes' statistics.
     * @return the totals, with node id -1.
     */
    public static DsmStats total(final List<DsmStats> nodes)
    {
        final long[] sum = new long[STATISTICS.length];
        for (final DsmStats stats : nodes)
        {
            for (int i = 0; i < sum.length; i++)
            {
                sum[i] += stats.values[i];
            }
        }
        return new DsmStats(-1, sum);
    }

    /**
     * Reads statistics written by {@link #toJson()}.
     *
     * @param json one node's JSON object.
     * @return the statistics.
     * @throws IllegalArgumentException if a statistic is missing.
     */
    public static DsmStats fromJson(final String json)
    {
        final long[] values = new long[STATISTICS.length];
        for (int i = 0; i < STATISTICS.length; i++)
        {
            values[i] = field(json, STATISTICS[i].label());
        }
        return new DsmStats((int)field(json, "node"), values);
    }

    /**
     * The node these statistics belong to.
     *
     * @return its id, or -1 for totals.
     */
    public int nodeId()
    {
        return nodeId;
    }

    /**
     * One statistic's value.
     *
     * @param statistic the statistic.
     * @return its value.
     */
    public long get(final Statistic statistic)
    {
        return values[statistic.ordinal()];
    }

    /**
     * Every statistic by label, in {@link Statistic} order.
     *
     * @return an unmodifiable map.
     */
    public Map<String, Long> asMap()
    {
        final Map<String, Long> map = new LinkedHashMap<>();
        for (final Statistic statistic : STATISTICS)
        {
            map.put(statistic.label(), values[statistic.ordinal()]);
        }
        return Collections.unmodifiableMap(map);
    }

    /**
     * The statistics as a JSON object: {@code {"node":0,"read_faults":12,...}}.
     *
     * @return the JSON text.
     */
    public String toJson()
    {
        final StringBuilder sb = new StringBuilder("{\"node\":").append(nodeId);
        for (final Statistic statistic : STATISTICS)
        {
            sb.append(",\"").append(statistic.label()).append("\":").append(values[statistic.ordinal()]);
        }
        return sb.append('}').toString();
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "DsmStats" + toJson();
    }

    private static Statistic[] ofCounter()
    {
        // Every protocol counter is reported under its own name.
        final Counter[] counters = Counter.values();
        final Statistic[] statistics = new Statistic[counters.length];
        for (final Counter counter : counters)
        {
            statistics[counter.ordinal()] = Statistic.valueOf(counter.name());
        }
        return statistics;
    }

    private static long field(final String json, final String name)
    {
        final String key = "\"" + name + "\":";
        final int at = json.indexOf(key);
        if (at < 0)
        {
            throw new IllegalArgumentException("statistics JSON lacks \"" + name + "\"");
        }
        int end = at + key.length();
        while (end < json.length() && ("-0123456789".indexOf(json.charAt(end)) >= 0))
        {
            end++;
        }
        return Long.parseLong(json.substring(at + key.length(), end));
    }
}
