package org.viadsm.dsm;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.viadsm.consistency.Counter;

/**
 * A snapshot of one node's statistics (or the sum over several nodes): faults, pages fetched, twins, diffs and
 * diff bytes, intervals and write notices, RDMA operations and bytes by kind, messages, lock acquires (local and
 * remote) and wait time, barriers and wait time. Immutable.
 */
public final class DsmStats
{
    private static final Counter[] COUNTERS = Counter.values();

    private final int nodeId;
    private final long[] values;

    DsmStats(final int nodeId, final long[] values)
    {
        this.nodeId = nodeId;
        this.values = values;
    }

    /**
     * Sums the statistics of several nodes.
     *
     * @param nodes the nodes' statistics.
     * @return the totals, with node id -1.
     */
    public static DsmStats total(final List<DsmStats> nodes)
    {
        final long[] sum = new long[COUNTERS.length];
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
     * @throws IllegalArgumentException if a counter is missing.
     */
    public static DsmStats fromJson(final String json)
    {
        final long[] values = new long[COUNTERS.length];
        for (int i = 0; i < COUNTERS.length; i++)
        {
            values[i] = field(json, COUNTERS[i].label());
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
     * One counter's value.
     *
     * @param counter the counter.
     * @return its value.
     */
    public long get(final Counter counter)
    {
        return values[counter.ordinal()];
    }

    /**
     * Every counter by label, in {@link Counter} order.
     *
     * @return an unmodifiable map.
     */
    public Map<String, Long> asMap()
    {
        final Map<String, Long> map = new LinkedHashMap<>();
        for (final Counter counter : COUNTERS)
        {
            map.put(counter.label(), values[counter.ordinal()]);
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
        for (final Counter counter : COUNTERS)
        {
            sb.append(",\"").append(counter.label()).append("\":").append(values[counter.ordinal()]);
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
