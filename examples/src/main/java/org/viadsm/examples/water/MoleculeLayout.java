package org.viadsm.examples.water;

/**
 * Layout of the C programs' {@code molecule_type} in a shared {@code DoubleArray}: one record of
 * {@link #LENGTH} doubles (672 bytes, as in C) per molecule.
 * <pre>
 *   offset  0..2   VM[dir]                 centre of charge ("M" site), per direction
 *   offset  3..83  F[func][dir][atom]      func = DISP, VEL, ACC, 3rd..6th derivative, FORCES, spare
 *                                          at 3 + 9 * func + 3 * dir + atom
 * </pre>
 * Atoms are ordered H1, O, H2; directions x, y, z. VM and the displacements are the first {@link #COORDINATES}
 * doubles, so one bulk read fetches what the pair interactions need of a molecule.
 */
public final class MoleculeLayout
{
    /**
     * Index of the first hydrogen atom.
     */
    public static final int H1 = 0;

    /**
     * Index of the oxygen atom.
     */
    public static final int O = 1;

    /**
     * Index of the second hydrogen atom.
     */
    public static final int H2 = 2;

    /**
     * Atoms per molecule.
     */
    public static final int NATOM = 3;

    /**
     * Spatial directions.
     */
    public static final int NDIR = 3;

    /**
     * Function index of the displacements.
     */
    public static final int DISP = 0;

    /**
     * Function index of the velocities.
     */
    public static final int VEL = 1;

    /**
     * Function index of the accelerations (the first INTERF call's destination).
     */
    public static final int ACC = 2;

    /**
     * Function index of the forces (INTERF's destination in the time steps).
     */
    public static final int FORCES = 7;

    /**
     * Functions kept per molecule (MXOD2 = MAXODR + 2).
     */
    public static final int MXOD2 = 9;

    /**
     * Highest derivative order plus one (MAXODR); INITIA clears derivatives ACC to MAXODR - 1.
     */
    public static final int MAXODR = 7;

    /**
     * Offset of VM.
     */
    public static final int VM_OFFSET = 0;

    /**
     * Offset of F.
     */
    public static final int F_OFFSET = NDIR;

    /**
     * Doubles per function: 3 directions times 3 atoms.
     */
    public static final int FUNCTION_LENGTH = NDIR * NATOM;

    /**
     * Doubles per molecule record.
     */
    public static final int LENGTH = F_OFFSET + MXOD2 * FUNCTION_LENGTH;

    /**
     * Doubles at the start of a record holding VM and the displacements.
     */
    public static final int COORDINATES = F_OFFSET + FUNCTION_LENGTH;

    private MoleculeLayout()
    {
    }

    /**
     * Offset of {@code F[func][dir][atom]} within a record.
     *
     * @param func function index, e.g. {@link #DISP}.
     * @param dir  direction, 0 to 2.
     * @param atom atom, {@link #H1}, {@link #O} or {@link #H2}.
     * @return the offset.
     */
    public static int f(final int func, final int dir, final int atom)
    {
        return F_OFFSET + func * FUNCTION_LENGTH + dir * NATOM + atom;
    }
}
