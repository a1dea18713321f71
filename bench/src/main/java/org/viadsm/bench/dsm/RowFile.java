package org.viadsm.bench.dsm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.viadsm.bench.BenchRow;
import org.viadsm.bench.Spread;

/**
 * Carries the rows node 0 measured to the command: one row per line, fields separated by tabs (text fields have
 * their tabs and line breaks replaced by spaces; figures in {@link Double#toString(double)} form).
 */
final class RowFile
{
    private static final int FIELDS = 17;

    private RowFile()
    {
    }

    static void write(final Path file, final List<BenchRow> rows)
    {
        final StringBuilder sb = new StringBuilder();
        for (final BenchRow row : rows)
        {
            sb.append(text(row.metric())).append('\t').append(text(row.unit())).append('\t')
                .append(text(row.baselineName())).append('\t').append(text(row.target()));
            spread(sb, row.value());
            spread(sb, row.baseline());
            sb.append('\t').append(null == row.note() ? "" : text(row.note()));
            sb.append('\t').append(row.bytesPerOp()).append('\t').append(row.baselineBytesPerOp()).append('\n');
        }
        try
        {
            Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    static List<BenchRow> read(final Path file)
    {
        final List<BenchRow> rows = new ArrayList<>();
        try
        {
            for (final String line : Files.readAllLines(file, StandardCharsets.UTF_8))
            {
                final String[] f = line.split("\t", -1);
                if (FIELDS != f.length)
                {
                    throw new IllegalStateException("bad row in " + file + ": " + line);
                }
                rows.add(new BenchRow(f[0], f[1], f[2], f[3], spread(f, 4), spread(f, 9), f[14].isEmpty() ? null :
                    f[14], Double.parseDouble(f[15]), Double.parseDouble(f[16])));
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
        return rows;
    }

    private static void spread(final StringBuilder sb, final Spread spread)
    {
        sb.append('\t').append(spread.typical()).append('\t').append(spread.tail()).append('\t').append(spread.min())
            .append('\t').append(spread.max()).append('\t').append(spread.rounds());
    }

    private static Spread spread(final String[] f, final int at)
    {
        return new Spread(Double.parseDouble(f[at]), Double.parseDouble(f[at + 1]), Double.parseDouble(f[at + 2]),
            Double.parseDouble(f[at + 3]), Integer.parseInt(f[at + 4]));
    }

    private static String text(final String text)
    {
        return text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }
}
