package org.viadsm.examples.barnes;

/**
 * A cell's integer fields: {@link NodeLayout}'s seven, then its eight children ({@code subp}, {@link NodeRef}s to
 * cells or leaves, {@link NodeRef#NULL} where empty).
 * <pre>
 * cells.ints (IntArray), INT_STRIDE = 15 ints per cell
 *  +-------------------------------+---------+---------+-----+---------+
 *  | NodeLayout fields 0..6        | subp[0] | subp[1] | ... | subp[7] |
 *  +-------------------------------+---------+---------+-----+---------+
 * </pre>
 */
final class CellLayout
{
    static final int NSUB = 8;
    static final int SUBP_OFFSET = 7;
    static final int INT_STRIDE = SUBP_OFFSET + NSUB;

    private CellLayout()
    {
    }
}
