package org.viadsm.bench.apps;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws {@code bench apps}' speedups as a PNG: one chart per application, speedup over the sequential run against
 * the number of members, for DSM nodes, Java threads and the ideal.
 */
final class SpeedupPlot
{
    private static final int COLUMNS = 3;

    private SpeedupPlot()
    {
    }

    /**
     * Writes the plot.
     *
     * @param report the measured rows.
     * @param counts the member counts, ascending.
     * @param file   the PNG file.
     */
    static void write(final AppsReport report, final List<Integer> counts, final Path file)
    {
        System.setProperty("java.awt.headless", "true");
        final List<XYChart> charts = new ArrayList<>();
        final List<String> apps = new ArrayList<>();
        for (final AppMeasurement row : report.rows())
        {
            if (!apps.contains(row.app))
            {
                apps.add(row.app);
            }
        }
        for (final String app : apps)
        {
            final XYChart chart = new XYChartBuilder().width(420).height(300).title(app).xAxisTitle("members")
                .yAxisTitle("speedup").build();
            chart.getStyler().setLegendVisible(true);
            series(chart, "dsm", report, app, AppMeasurement.DSM, counts);
            series(chart, "threads", report, app, AppMeasurement.THREADS, counts);
            final double[] ideal = new double[counts.size()];
            for (int i = 0; i < ideal.length; i++)
            {
                ideal[i] = counts.get(i);
            }
            final XYSeries line = chart.addSeries("ideal", ideal, ideal);
            line.setLineStyle(SeriesLines.DASH_DASH);
            line.setMarker(SeriesMarkers.NONE);
            charts.add(chart);
        }
        final int rows = (charts.size() + COLUMNS - 1) / COLUMNS;
        try
        {
            BitmapEncoder.saveBitmap(charts, rows, Math.min(COLUMNS, charts.size()), file.toString(),
                BitmapEncoder.BitmapFormat.PNG);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    private static void series(
        final XYChart chart, final String name, final AppsReport report, final String app, final String mode,
        final List<Integer> counts)
    {
        final List<Double> x = new ArrayList<>();
        final List<Double> y = new ArrayList<>();
        for (final int n : counts)
        {
            double speedup = Double.NaN;
            for (final AppMeasurement row : report.rows())
            {
                if (row.app.equals(app) && row.nodes == n && (row.mode.equals(mode) ||
                    (1 == n && AppMeasurement.THREADS.equals(mode) && AppMeasurement.SEQ.equals(row.mode))))
                {
                    speedup = report.speedup(row);
                }
            }
            if (!Double.isNaN(speedup))
            {
                x.add((double)n);
                y.add(speedup);
            }
        }
        if (!x.isEmpty())
        {
            chart.addSeries(name, x, y);
        }
    }
}
