package org.viadsm.examples.waternsq;

import org.viadsm.examples.water.MoleculeLayout;

/**
 * WATER-NSQUARED's shared memory and locks.
 * <pre>
 *   VAR      DoubleArray  NMOL records of {@link MoleculeLayout#LENGTH} doubles (molecule_type), mol at mol * 84
 *   gl       DoubleArray  {@link org.viadsm.examples.water.GlobalLayout} (struct GlobalMemory)
 *   PFORCES  DoubleArray  per processor p, per molecule, [dir][atom]: at (p * NMOL + mol) * 9 + 3 * dir + atom
 * </pre>
 * The C program G_MALLOCs PFORCES, so it is shared here too, though each processor touches only its own block
 * (the C program mallocs each [p][mol][dir] row of three doubles separately; here the blocks are contiguous).
 * StartMol, the static partition, is a global the master fills before creating the workers; every member computes
 * the same values itself.
 * <p>
 * Locks: the C struct's single locks get ids 0 to 8 in declaration order; the lock array MolLock[mol % MAXLCKS]
 * follows from {@link #MOL_LOCK}. The C program's three barriers (start, InterfBar, PotengBar) are passed in the
 * same order by every processor and map to the team barrier.
 */
final class NsquaredLayout
{
    static final String VAR_NAME = "water-nsquared.VAR";
    static final String GL_NAME = "water-nsquared.gl";
    static final String PFORCES_NAME = "water-nsquared.PFORCES";

    static final int IO_LOCK = 0;
    static final int INDEX_LOCK = 1;
    static final int INTRAF_VIR_LOCK = 2;
    static final int INTERF_VIR_LOCK = 3;
    static final int FX_LOCK = 4;
    static final int FY_LOCK = 5;
    static final int FZ_LOCK = 6;
    static final int KINETI_SUM_LOCK = 7;
    static final int POTENG_SUM_LOCK = 8;
    static final int MOL_LOCK = 9;

    /**
     * Size of the C program's lock array: molecule {@code mol} uses MolLock[mol % MAXLCKS].
     */
    static final int MAXLCKS = 65536;

    /**
     * Doubles of one molecule's private force block.
     */
    static final int FORCE_LENGTH = MoleculeLayout.FUNCTION_LENGTH;

    private NsquaredLayout()
    {
    }
}
