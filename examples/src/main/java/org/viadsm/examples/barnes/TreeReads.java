package org.viadsm.examples.barnes;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.IntReadView;

/**
 * The force walk's reads of the tree and the bodies: the real fields of a body, cell or leaf, and the integer
 * fields of cells and leaves, by the arrays' own indices.
 * <p>
 * {@link #elements(BarnesShared)} reads element by element, for a walk that synchronizes (Splash-3's optional lock
 * per body-body interaction ends every view); {@link #views(BarnesShared)} reads through read views of the whole
 * arrays, made by {@link #refresh()} after the walk's last synchronization, at the speed of plain arrays.
 */
abstract class TreeReads
{
    /**
     * Makes the reads valid again after a synchronization of this member.
     */
    abstract void refresh();

    /**
     * A real field of a node.
     *
     * @param type    {@link NodeRef#BODY}, {@link NodeRef#CELL} or {@link NodeRef#LEAF}.
     * @param element the field's index in its array.
     * @return the field's value.
     */
    abstract double real(int type, int element);

    abstract int cellInt(int element);

    abstract int leafInt(int element);

    static TreeReads elements(final BarnesShared shared)
    {
        return new Elements(shared);
    }

    static TreeReads views(final BarnesShared shared)
    {
        return new Views(shared);
    }

    private static final class Elements extends TreeReads
    {
        private final DoubleArray bodies;
        private final DoubleArray cells;
        private final DoubleArray leaves;
        private final IntArray cellInts;
        private final IntArray leafInts;

        Elements(final BarnesShared shared)
        {
            this.bodies = shared.bodies;
            this.cells = shared.cells;
            this.leaves = shared.leaves;
            this.cellInts = shared.cellInts;
            this.leafInts = shared.leafInts;
        }

        @Override
        void refresh()
        {
        }

        @Override
        double real(final int type, final int element)
        {
            return (NodeRef.BODY == type ? bodies : NodeRef.LEAF == type ? leaves : cells).get(element);
        }

        @Override
        int cellInt(final int element)
        {
            return cellInts.get(element);
        }

        @Override
        int leafInt(final int element)
        {
            return leafInts.get(element);
        }
    }

    private static final class Views extends TreeReads
    {
        private final BarnesShared shared;
        private DoubleReadView bodies;
        private DoubleReadView cells;
        private DoubleReadView leaves;
        private IntReadView cellInts;
        private IntReadView leafInts;

        Views(final BarnesShared shared)
        {
            this.shared = shared;
        }

        @Override
        void refresh()
        {
            bodies = shared.bodies.read(0, shared.bodies.length(), bodies);
            cells = shared.cells.read(0, shared.cells.length(), cells);
            leaves = shared.leaves.read(0, shared.leaves.length(), leaves);
            cellInts = shared.cellInts.read(0, shared.cellInts.length(), cellInts);
            leafInts = shared.leafInts.read(0, shared.leafInts.length(), leafInts);
        }

        @Override
        double real(final int type, final int element)
        {
            return (NodeRef.BODY == type ? bodies : NodeRef.LEAF == type ? leaves : cells).get(element);
        }

        @Override
        int cellInt(final int element)
        {
            return cellInts.get(element);
        }

        @Override
        int leafInt(final int element)
        {
            return leafInts.get(element);
        }
    }
}
