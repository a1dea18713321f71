package org.viadsm.bench.apps;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.viadsm.examples.cli.OutputFileOption;

/**
 * Draws {@code bench apps} as a PNG, two charts per application side by side: the speedup over the sequential run
 * against the number of members (DSM nodes, Java threads, ideal), and where the DSM runs' time went, a stacked bar
 * of {@link TimeBreakdown}'s categories per node count.
 */
final class AppsPlot
{
    private static final int APPS_PER_ROW = 2;
    private static final int WIDTH = 420;
    private static final int HEIGHT = 300;

    private AppsPlot()
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
        final List<Chart<?, ?>> charts = new ArrayList<>();
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
            charts.add(speedups(report, app, counts));
            charts.add(breakdown(report, app, counts));
        }
        final int columns = Math.min(APPS_PER_ROW, apps.size()) * 2;
        final int rows = (charts.size() + columns - 1) / columns;
        try
        {
            OutputFileOption.createDirectories(file);
            BitmapEncoder.saveBitmap(charts, rows, columns, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    private static XYChart speedups(final AppsReport report, final String app, final List<Integer> counts)
    {
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(app).xAxisTitle("members")
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
        return chart;
    }

    /**
     * One bar per node count with DSM statistics: the mean over the nodes, stacked by category; categories that
     * took no time in any of the bars are left out of the chart and its legend.
     */
    static CategoryChart breakdown(final AppsReport report, final String app, final List<Integer> counts)
    {
        final CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
            .title(app + ": DSM time per node").xAxisTitle("nodes").yAxisTitle("ms").build();
        chart.getStyler().setStacked(true);
        final List<String> nodes = new ArrayList<>();
        final List<double[]> bars = new ArrayList<>();
        for (final int n : counts)
        {
            for (final AppMeasurement row : report.rows())
            {
                if (row.app.equals(app) && row.nodes == n && null != row.perNode && !row.perNode.isEmpty())
                {
                    nodes.add(Integer.toString(n));
                    bars.add(TimeBreakdown.meanMs(row.perNode));
                }
            }
        }
        boolean any = false;
        for (int c = 0; c < TimeBreakdown.CATEGORIES.size(); c++)
        {
            final List<Double> ms = new ArrayList<>();
            boolean spent = false;
            for (final double[] bar : bars)
            {
                spent |= bar[c] > 0;
                ms.add(bar[c]);
            }
            if (spent)
            {
                chart.addSeries(TimeBreakdown.CATEGORIES.get(c).label(), nodes, ms);
                any = true;
            }
        }
        if (!any)
        {
            chart.addSeries("no DSM statistics", List.of("-"), List.of(0.0));
        }
        return chart;
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
