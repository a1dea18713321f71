package org.viadsm.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads the rows of a report's JSON, as tests check them.
 */
public final class ReportJson
{
    private static final Pattern ROW = Pattern.compile("\\{\"metric\":\"([^\"]+)\",\"value\":([^,]+),\"unit\":\"" +
        "([^\"]+)\",\"baseline\":([^,]+),\"baseline_name\":\"((?:[^\"\\\\]|\\\\.)+)\",\"ratio\":([^,}]+)," +
        "\"bytes_per_op\":([^,}]+),\"baseline_bytes_per_op\":([^,}]+)}");

    private ReportJson()
    {
    }

    /**
     * Checks the report's outer shape and returns its rows.
     *
     * @param bench the expected bench name.
     * @param text  the JSON.
     * @return one row per metric: metric, value, unit, baseline, baseline name, ratio, bytes per operation of value
     *         and baseline (numbers as text).
     */
    public static List<String[]> rows(final String bench, final String text)
    {
        assertTrue(text.matches("(?s)\\{\"bench\":\"" + bench + "\",\"cores\":[1-9][0-9]*,\"rows\":\\[\n.*\n]}\n"),
            text);
        final List<String[]> rows = new ArrayList<>();
        final Matcher row = ROW.matcher(text);
        while (row.find())
        {
            rows.add(new String[]{row.group(1), row.group(2), row.group(3), row.group(4), row.group(5), row.group(6),
                row.group(7), row.group(8)});
        }
        return rows;
    }
}
