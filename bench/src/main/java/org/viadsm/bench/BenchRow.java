package org.viadsm.bench;

/**
 * One row of a benchmark report: a measured metric and its baseline, both measured in the same run, with what the
 * rounds showed about their spread. {@link #ratio()} is {@code value / baseline}.
 * <p>
 * A row whose metric could not be measured (a provider missing from the build, say) has NaN figures and a note
 * saying why; the JSON then carries {@code null}.
 */
public final class BenchRow
{
    private final String metric;
    private final String unit;
    private final String baselineName;
    private final String target;
    private final Spread value;
    private final Spread baseline;
    private final String note;
    private final double bytesPerOp;
    private final double baselineBytesPerOp;

    /**
     * A measured row whose allocation was not counted.
     *
     * @param metric       the metric's name, e.g. {@code shm.send_recv_64B_oneway}.
     * @param unit         the unit of value and baseline, e.g. {@code ns}.
     * @param baselineName what the baseline measures.
     * @param target       the ratio the project aims for, e.g. {@code <= 3}, for display.
     * @param value        the measured path over the rounds.
     * @param baseline     the baseline over the rounds.
     * @param note         a remark for the table (noise, a caveat), or null.
     */
    public BenchRow(
        final String metric,
        final String unit,
        final String baselineName,
        final String target,
        final Spread value,
        final Spread baseline,
        final String note)
    {
        this(metric, unit, baselineName, target, value, baseline, note, Double.NaN, Double.NaN);
    }

    /**
     * A measured row with the bytes the timing thread allocated per timed operation.
     *
     * @param metric             the metric's name, e.g. {@code shm.send_recv_64B_oneway}.
     * @param unit               the unit of value and baseline, e.g. {@code ns}.
     * @param baselineName       what the baseline measures.
     * @param target             the ratio the project aims for, e.g. {@code <= 3}, for display.
     * @param value              the measured path over the rounds.
     * @param baseline           the baseline over the rounds.
     * @param note               a remark for the table (noise, a caveat), or null.
     * @param bytesPerOp         bytes allocated per timed operation of the measured path, NaN if not counted.
     * @param baselineBytesPerOp bytes allocated per timed operation of the baseline, NaN if not counted.
     */
    public BenchRow(
        final String metric,
        final String unit,
        final String baselineName,
        final String target,
        final Spread value,
        final Spread baseline,
        final String note,
        final double bytesPerOp,
        final double baselineBytesPerOp)
    {
        this.bytesPerOp = bytesPerOp;
        this.baselineBytesPerOp = baselineBytesPerOp;
        this.metric = metric;
        this.unit = unit;
        this.baselineName = baselineName;
        this.target = target;
        this.value = value;
        this.baseline = baseline;
        this.note = note;
    }

    /**
     * A row that could not be measured.
     *
     * @param metric       the metric's name.
     * @param unit         its unit.
     * @param baselineName what the baseline would measure.
     * @param target       the target ratio, for display.
     * @param reason       why nothing was measured.
     * @return a row with NaN figures.
     */
    public static BenchRow unavailable(
        final String metric, final String unit, final String baselineName, final String target, final String reason)
    {
        return new BenchRow(metric, unit, baselineName, target, Spread.NONE, Spread.NONE, reason);
    }

    /**
     * The metric's name.
     *
     * @return the name.
     */
    public String metric()
    {
        return metric;
    }

    /**
     * The unit of value and baseline.
     *
     * @return the unit.
     */
    public String unit()
    {
        return unit;
    }

    /**
     * What the baseline measures.
     *
     * @return the baseline's name.
     */
    public String baselineName()
    {
        return baselineName;
    }

    /**
     * The ratio the project aims for, for display.
     *
     * @return the target, e.g. {@code <= 3}.
     */
    public String target()
    {
        return target;
    }

    /**
     * The measured path over the rounds.
     *
     * @return its spread.
     */
    public Spread value()
    {
        return value;
    }

    /**
     * The baseline over the rounds.
     *
     * @return its spread.
     */
    public Spread baseline()
    {
        return baseline;
    }

    /**
     * {@code value / baseline}, from the typical figures.
     *
     * @return the ratio, NaN if either is missing.
     */
    public double ratio()
    {
        return value.typical() / baseline.typical();
    }

    /**
     * A remark for the table.
     *
     * @return the note, or null.
     */
    public String note()
    {
        return note;
    }

    /**
     * The bytes the timing thread allocated per timed operation of the measured path, over every round.
     *
     * @return bytes, NaN if not counted.
     */
    public double bytesPerOp()
    {
        return bytesPerOp;
    }

    /**
     * The bytes the timing thread allocated per timed operation of the baseline, over every round.
     *
     * @return bytes, NaN if not counted.
     */
    public double baselineBytesPerOp()
    {
        return baselineBytesPerOp;
    }

    /**
     * Whether the row holds measurements.
     *
     * @return false for an unavailable row.
     */
    public boolean isMeasured()
    {
        return !Double.isNaN(value.typical());
    }
}
