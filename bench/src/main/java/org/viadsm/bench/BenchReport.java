package org.viadsm.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The report of one {@code viadsm bench} subcommand: a table for people and JSON for tools. The JSON has exactly
 * this shape, one object per row, value and baseline being the typical (p50) figures, and the bytes the timing
 * thread allocated per timed operation of each:
 * <pre>
 * {"bench":"via","cores":2,"rows":[
 * {"metric":"...","value":1.5,"unit":"ns","baseline":1.0,"baseline_name":"...","ratio":1.5,
 *  "bytes_per_op":0,"baseline_bytes_per_op":0}
 * ]}
 * </pre>
 * A figure that was not measured (or an allocation not counted) is {@code null}.
 */
public final class BenchReport
{
    /** Rounds whose typical figures differ by more than this factor get a "noisy" remark. */
    public static final double NOISY_VARIATION = 1.5;

    private static final MathContext DIGITS = new MathContext(5);

    private final String bench;
    private final int cores;
    private final String description;
    private final List<BenchRow> rows = new ArrayList<>();

    /**
     * An empty report.
     *
     * @param bench       the subcommand, e.g. {@code via}.
     * @param cores       processors available to the JVM.
     * @param description one line on how the figures were taken, printed above the table.
     */
    public BenchReport(final String bench, final int cores, final String description)
    {
        this.bench = bench;
        this.cores = cores;
        this.description = description;
    }

    /**
     * Adds a row.
     *
     * @param row the row.
     * @return this report.
     */
    public BenchReport add(final BenchRow row)
    {
        rows.add(row);
        return this;
    }

    /**
     * The rows in the order they were added.
     *
     * @return an unmodifiable view.
     */
    public List<BenchRow> rows()
    {
        return Collections.unmodifiableList(rows);
    }

    /**
     * The report as JSON, in the shape the class comment shows.
     *
     * @return the JSON text, ending with a newline.
     */
    public String toJson()
    {
        final StringBuilder sb = new StringBuilder("{\"bench\":").append(quote(bench))
            .append(",\"cores\":").append(cores).append(",\"rows\":[");
        for (int i = 0; i < rows.size(); i++)
        {
            final BenchRow row = rows.get(i);
            sb.append(0 == i ? "\n" : ",\n")
                .append("{\"metric\":").append(quote(row.metric()))
                .append(",\"value\":").append(number(row.value().typical()))
                .append(",\"unit\":").append(quote(row.unit()))
                .append(",\"baseline\":").append(number(row.baseline().typical()))
                .append(",\"baseline_name\":").append(quote(row.baselineName()))
                .append(",\"ratio\":").append(number(row.ratio()))
                .append(",\"bytes_per_op\":").append(number(row.bytesPerOp()))
                .append(",\"baseline_bytes_per_op\":").append(number(row.baselineBytesPerOp()))
                .append('}');
        }
        return sb.append(rows.isEmpty() ? "" : "\n").append("]}\n").toString();
    }

    /**
     * Writes {@link #toJson()} to a file, replacing it.
     *
     * @param file the file.
     * @throws UncheckedIOException if the file cannot be written.
     */
    public void writeJson(final Path file)
    {
        try
        {
            final Path parent = file.toAbsolutePath().getParent();
            if (null != parent)
            {
                Files.createDirectories(parent);
            }
            Files.write(file, toJson().getBytes(StandardCharsets.UTF_8));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    /**
     * Prints the table: per row the typical (p50) and tail (p99) figures of value and baseline, the ratio, the
     * target, the bytes allocated per timed operation of value and baseline, the lowest and highest round; then what
     * each baseline is, and the notes.
     *
     * @param out where to print.
     */
    public void printTable(final PrintStream out)
    {
        out.println("bench " + bench + ", " + cores + " cores: " + description);
        out.println(String.format(Locale.ROOT, "%-28s %-5s %9s %9s %9s %9s %7s %7s %6s %6s  %s",
            "metric", "unit", "p50", "p99", "base p50", "base p99", "ratio", "target", "B/op", "base",
            "rounds p50 min..max"));
        for (final BenchRow row : rows)
        {
            out.println(String.format(Locale.ROOT, "%-28s %-5s %9s %9s %9s %9s %7s %7s %6s %6s  %s",
                row.metric(), row.unit(), figure(row.value().typical()), figure(row.value().tail()),
                figure(row.baseline().typical()), figure(row.baseline().tail()), figure(row.ratio()), row.target(),
                figure(row.bytesPerOp()), figure(row.baselineBytesPerOp()), range(row)));
        }
        out.println();
        for (final BenchRow row : rows)
        {
            out.println("  " + row.metric() + ": baseline = " + row.baselineName());
            if (null != row.note())
            {
                out.println("    note: " + row.note());
            }
            if (isNoisy(row))
            {
                out.println(String.format(Locale.ROOT,
                    "    noisy: rounds' p50 vary by x%.2f (value) and x%.2f (baseline); trust the ratio less",
                    row.value().variation(), row.baseline().variation()));
            }
        }
    }

    /**
     * Whether a row's rounds varied by more than {@link #NOISY_VARIATION}.
     *
     * @param row the row.
     * @return true if the value's or the baseline's rounds varied that much.
     */
    public static boolean isNoisy(final BenchRow row)
    {
        return row.isMeasured() && (row.value().variation() > NOISY_VARIATION ||
            row.baseline().variation() > NOISY_VARIATION);
    }

    /**
     * A figure for the table: about four significant digits, {@code -} when not measured.
     *
     * @param value the figure.
     * @return the text.
     */
    public static String figure(final double value)
    {
        if (Double.isNaN(value) || Double.isInfinite(value))
        {
            return "-";
        }
        final double magnitude = Math.abs(value);
        final String format =
            magnitude >= 1000 ? "%.0f" : magnitude >= 100 ? "%.1f" : magnitude >= 10 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, format, value);
    }

    private static String range(final BenchRow row)
    {
        if (!row.isMeasured() || row.value().rounds() < 2)
        {
            return row.isMeasured() ? "1 round" : "not measured";
        }
        return row.value().rounds() + ": " + figure(row.value().min()) + ".." + figure(row.value().max()) + " / " +
            figure(row.baseline().min()) + ".." + figure(row.baseline().max());
    }

    /**
     * A figure for JSON: five significant digits, {@code null} when not measured.
     *
     * @param value the figure.
     * @return the JSON number or {@code null}.
     */
    public static String number(final double value)
    {
        if (Double.isNaN(value) || Double.isInfinite(value))
        {
            return "null";
        }
        return new BigDecimal(value).round(DIGITS).stripTrailingZeros().toPlainString();
    }

    /**
     * A JSON string literal.
     *
     * @param text the text.
     * @return it in quotes, with quotes, backslashes and control characters escaped.
     */
    public static String quote(final String text)
    {
        final StringBuilder sb = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if ('"' == c || '\\' == c)
            {
                sb.append('\\').append(c);
            }
            else if (c < 0x20)
            {
                sb.append(String.format(Locale.ROOT, "\\u%04x", (int)c));
            }
            else
            {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
