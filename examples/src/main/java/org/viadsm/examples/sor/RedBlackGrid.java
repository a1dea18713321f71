package org.viadsm.examples.sor;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;

/**
 * The grid of the SOR benchmark and its operations, for one member: {@code rows + 2} by {@code cols + 2} doubles in
 * one shared array, row-major, whose outermost rows and columns hold fixed boundary values; the interior rows are
 * split into contiguous bands, one per member.
 * <p>
 * Point (i, j) is red when i + j is even, black otherwise. A sweep of one colour reads only points of the other
 * colour, so its updates can run in any order and give the same values on any number of members.
 * <p>
 * <b>Note:</b> one instance per member, used by the thread that runs it.
 */
final class RedBlackGrid
{
    static final int RED = 0;
    static final int BLACK = 1;

    private final DoubleArray grid;
    private final int cols;
    private final int stride;
    private final int firstRow;
    private final int lastRow;
    private final double omega;
    /** What a sweep reads: the band and its neighbouring rows; re-wrapped at every sweep. */
    private DoubleReadView reads;
    /** What a sweep writes: the band's interior points. */
    private DoubleView writes;

    /**
     * A member's view of the grid.
     *
     * @param grid    the shared grid, {@code (rows + 2) * (cols + 2)} elements.
     * @param rows    interior rows.
     * @param cols    interior columns.
     * @param omega   the relaxation factor.
     * @param member  this member's id.
     * @param members the team size.
     */
    RedBlackGrid(
        final DoubleArray grid, final int rows, final int cols, final double omega, final int member,
        final int members)
    {
        this.grid = grid;
        this.cols = cols;
        this.stride = cols + 2;
        this.omega = omega;
        this.firstRow = firstRow(rows, member, members);
        this.lastRow = firstRow(rows, member + 1, members) - 1;
        // empty views to re-wrap, so that a sweep never passes null: the first sweep of a warm run would otherwise
        // meet the null case in code C2 compiled without it, trap (null_check) and recompile the sweep
        this.reads = grid.read(0, 0);
        this.writes = grid.update(0, 0);
    }

    /**
     * The first interior row of {@code member}'s band; {@code firstRow(rows, members, members)} is {@code rows + 1}.
     *
     * @param rows    interior rows.
     * @param member  the member.
     * @param members the team size.
     * @return the row index.
     */
    static int firstRow(final int rows, final int member, final int members)
    {
        return 1 + (int)((long)rows * member / members);
    }

    /**
     * The member whose band holds a row: the boundary rows go with the bands next to them.
     *
     * @param rows    interior rows.
     * @param row     the row, 0 to {@code rows + 1}.
     * @param members the team size.
     * @return the member.
     */
    static int owner(final int rows, final int row, final int members)
    {
        int member = 0;
        while (member + 1 < members && row >= firstRow(rows, member + 1, members))
        {
            member++;
        }
        return member;
    }

    /**
     * The fixed value of boundary point (i, j): 1 along the top, falling linearly to 0 down the left edge, 0 on the
     * right and bottom edges. Not symmetric, so a misplaced row or column changes the checksum.
     *
     * @param i    row, 0 to {@code rows + 1}.
     * @param j    column, 0 to {@code cols + 1}.
     * @param rows interior rows.
     * @param cols interior columns.
     * @return the value.
     */
    static double boundary(final int i, final int j, final int rows, final int cols)
    {
        if (0 == i)
        {
            return 1.0;
        }
        if (rows + 1 == i || cols + 1 == j)
        {
            return 0.0;
        }
        return 1.0 - (double)i / (rows + 1);
    }

    /**
     * The new value of a point from its four neighbours and its old value.
     *
     * @param up    the point above.
     * @param down  the point below.
     * @param left  the point to the left.
     * @param right the point to the right.
     * @param old   the point's value.
     * @param omega the relaxation factor; 1 makes the point the average of its neighbours.
     * @return the relaxed value.
     */
    static double relax(
        final double up, final double down, final double left, final double right, final double old,
        final double omega)
    {
        return omega * ((up + down + left + right) * 0.25) + (1.0 - omega) * old;
    }

    /**
     * Writes the boundary of the whole grid (member 0 does it, as the master does in the classic benchmark).
     *
     * @param rows interior rows.
     */
    void initialiseBoundary(final int rows)
    {
        final int last = (rows + 1) * stride;
        for (int j = 0; j < stride; j++)
        {
            grid.set(j, boundary(0, j, rows, cols));
            grid.set(last + j, boundary(rows + 1, j, rows, cols));
        }
        for (int i = 1; i <= rows; i++)
        {
            grid.set(i * stride, boundary(i, 0, rows, cols));
            grid.set(i * stride + cols + 1, boundary(i, cols + 1, rows, cols));
        }
    }

    /**
     * Relaxes every point of one colour in this member's band, through a view of the points it reads (the band and
     * the rows next to it) and a view of the points it writes (the band's interior points).
     *
     * @param colour {@link #RED} or {@link #BLACK}.
     */
    void sweep(final int colour)
    {
        final int n = cols;
        final int s = stride;
        reads = grid.read((firstRow - 1) * s + 1, (lastRow + 1) * s + n + 1, reads);
        writes = grid.update(firstRow * s + 1, lastRow * s + n + 1, writes);
        final DoubleReadView r = reads;
        final DoubleView w = writes;
        final double factor = omega;
        for (int i = firstRow; i <= lastRow; i++)
        {
            final int row = i * s;
            final int up = row - s;
            final int down = row + s;
            // The first column j >= 1 with (i + j) % 2 == colour.
            final int first = 1 + ((i + 1 + colour) & 1);
            for (int j = first; j <= n; j += 2)
            {
                w.set(row + j, relax(r.get(up + j), r.get(down + j), r.get(row + j - 1), r.get(row + j + 1),
                    r.get(row + j), factor));
            }
        }
    }

    /**
     * Sums each row of this member's band, left to right over the interior columns, into {@code rowSums}.
     *
     * @param rowSums one element per interior row; row i goes to index i - 1.
     * @param scratch a buffer of at least {@code cols} elements.
     */
    void sumRows(final DoubleArray rowSums, final double[] scratch)
    {
        for (int i = firstRow; i <= lastRow; i++)
        {
            grid.get(i * stride + 1, scratch, 0, cols);
            rowSums.set(i - 1, sumRow(scratch, 0, cols));
        }
    }

    /**
     * The checksum: the row sums added in row order.
     *
     * @param rowSums the sum of every interior row.
     * @param scratch a buffer of at least {@code rowSums.length()} elements.
     * @return the checksum.
     */
    static double checksum(final DoubleArray rowSums, final double[] scratch)
    {
        final int rows = rowSums.length();
        rowSums.get(0, scratch, 0, rows);
        return sumRow(scratch, 0, rows);
    }

    /**
     * Adds {@code length} values left to right.
     *
     * @param values the values.
     * @param from   first index.
     * @param length number of values.
     * @return the sum.
     */
    static double sumRow(final double[] values, final int from, final int length)
    {
        double sum = 0.0;
        for (int j = from; j < from + length; j++)
        {
            sum += values[j];
        }
        return sum;
    }
}
