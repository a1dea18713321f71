package org.viadsm.examples.barnes;

/**
 * Where a body's fields live: the C's {@code bodytab}, an array of {@code struct _body} allocated by the master,
 * becomes two shared arrays indexed by body number, one for the real fields and one for the integer ones.
 * <pre>
 * bodies (DoubleArray), REAL_STRIDE = 11 doubles per body
 *  +------+-------+-------+-------+-------+-------+-------+-------+-------+-------+-----+
 *  | mass | pos.x | pos.y | pos.z | vel.x | vel.y | vel.z | acc.x | acc.y | acc.z | phi |
 *  +------+-------+-------+-------+-------+-------+-------+-------+-------+-------+-----+
 * bodies.ints (IntArray), INT_STRIDE = 4 ints per body
 *  +------+-------+---------------------+-----------+
 *  | cost | level | parent (leaf ref)   | child_num |
 *  +------+-------+---------------------+-----------+
 * </pre>
 * The C's {@code type} field is not stored: a {@link NodeRef} carries it. {@code level} holds the bit length of the
 * C's level (see {@link NodeLayout#decodeLevel(int)}).
 */
final class BodyLayout
{
    static final int MASS_OFFSET = 0;
    static final int POS_OFFSET = 1;
    static final int VEL_OFFSET = 4;
    static final int ACC_OFFSET = 7;
    static final int PHI_OFFSET = 10;
    static final int REAL_STRIDE = 11;

    static final int COST_OFFSET = 0;
    static final int LEVEL_OFFSET = 1;
    static final int PARENT_OFFSET = 2;
    static final int CHILD_NUM_OFFSET = 3;
    static final int INT_STRIDE = 4;

    private BodyLayout()
    {
    }
}
