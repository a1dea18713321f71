package org.viadsm.examples.water;

import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;

import static org.viadsm.examples.water.MoleculeLayout.DISP;
import static org.viadsm.examples.water.MoleculeLayout.FORCES;
import static org.viadsm.examples.water.MoleculeLayout.FUNCTION_LENGTH;
import static org.viadsm.examples.water.MoleculeLayout.H1;
import static org.viadsm.examples.water.MoleculeLayout.H2;
import static org.viadsm.examples.water.MoleculeLayout.NATOM;
import static org.viadsm.examples.water.MoleculeLayout.NDIR;
import static org.viadsm.examples.water.MoleculeLayout.O;
import static org.viadsm.examples.water.MoleculeLayout.VM_OFFSET;
import static org.viadsm.examples.water.WaterConstants.ANGLE;
import static org.viadsm.examples.water.WaterConstants.C1;
import static org.viadsm.examples.water.WaterConstants.C2;
import static org.viadsm.examples.water.WaterConstants.FC11;
import static org.viadsm.examples.water.WaterConstants.FC111;
import static org.viadsm.examples.water.WaterConstants.FC1111;
import static org.viadsm.examples.water.WaterConstants.FC1112;
import static org.viadsm.examples.water.WaterConstants.FC1113;
import static org.viadsm.examples.water.WaterConstants.FC112;
import static org.viadsm.examples.water.WaterConstants.FC1122;
import static org.viadsm.examples.water.WaterConstants.FC1123;
import static org.viadsm.examples.water.WaterConstants.FC113;
import static org.viadsm.examples.water.WaterConstants.FC1133;
import static org.viadsm.examples.water.WaterConstants.FC12;
import static org.viadsm.examples.water.WaterConstants.FC123;
import static org.viadsm.examples.water.WaterConstants.FC1233;
import static org.viadsm.examples.water.WaterConstants.FC13;
import static org.viadsm.examples.water.WaterConstants.FC133;
import static org.viadsm.examples.water.WaterConstants.FC1333;
import static org.viadsm.examples.water.WaterConstants.FC33;
import static org.viadsm.examples.water.WaterConstants.FC333;
import static org.viadsm.examples.water.WaterConstants.FC3333;
import static org.viadsm.examples.water.WaterConstants.ROH;
import static org.viadsm.examples.water.WaterConstants.ROHI;
import static org.viadsm.examples.water.WaterConstants.ROHI2;

/**
 * The intramolecular part of the WATER programs, one molecule at a time: the bond forces of {@code INTRAF}, its
 * virial sum, and the intramolecular potential of {@code POTENG}. The formulas and their operation order are the C
 * programs', so the results round identically. Each method works on a view of the molecule's record (its array's
 * own indices), made by the caller after its last synchronization.
 * <p>
 * <b>Note:</b> holds scratch space: one instance per team member.
 */
public final class IntraMolecular
{
    private final double[] disp = new double[FUNCTION_LENGTH];
    private final double[] vm = new double[NDIR];
    private final double[] vr1 = new double[NDIR];
    private final double[] vr2 = new double[NDIR];
    private final double[] dr11 = new double[NDIR];
    private final double[] dr23 = new double[NDIR];
    private final double[] dt1 = new double[NDIR];
    private final double[] dt3 = new double[NDIR];

    /**
     * Creates the calculator.
     */
    public IntraMolecular()
    {
    }

    /**
     * {@code INTRAF}'s loop body: sets the molecule's VM and overwrites its FORCES with the bond forces.
     *
     * @param var  an update view of the molecule's record (VM to FORCES).
     * @param base offset of the molecule's record.
     */
    public void forces(final DoubleView var, final int base)
    {
        final double[] d = displacements(var, base);
        double sum = 0.0;
        double r1 = 0.0;
        double r2 = 0.0;
        for (int dir = 0; dir < NDIR; dir++)
        {
            final int at = dir * NATOM;
            vm[dir] = C1 * d[at + O] + C2 * (d[at + H1] + d[at + H2]);
            vr1[dir] = d[at + O] - d[at + H1];
            r1 += vr1[dir] * vr1[dir];
            vr2[dir] = d[at + O] - d[at + H2];
            r2 += vr2[dir] * vr2[dir];
            sum += vr1[dir] * vr2[dir];
        }
        setVm(var, base);

        r1 = Math.sqrt(r1);
        r2 = Math.sqrt(r2);
        final double cos = sum / (r1 * r2);
        final double sin = Math.sqrt(1.0 - cos * cos);
        final double dt = (Math.acos(cos) - ANGLE) * ROH;
        final double dts = dt * dt;
        final double dr1 = r1 - ROH;
        final double dr1s = dr1 * dr1;
        final double dr2 = r2 - ROH;
        final double dr2s = dr2 * dr2;
        final double r1s = ROH / (r1 * sin);
        final double r2s = ROH / (r2 * sin);
        for (int dir = 0; dir < NDIR; dir++)
        {
            dr11[dir] = vr1[dir] / r1;
            dr23[dir] = vr2[dir] / r2;
            dt1[dir] = (-dr23[dir] + dr11[dir] * cos) * r1s;
            dt3[dir] = (-dr11[dir] + dr23[dir] * cos) * r2s;
        }

        double f1 = FC11 * dr1 + FC12 * dr2 + FC13 * dt;
        double f2 = FC33 * dt + FC13 * (dr1 + dr2);
        double f3 = FC11 * dr2 + FC12 * dr1 + FC13 * dt;
        f1 = f1 + (3.0 * FC111 * dr1s + FC112 * (2.0 * dr1 + dr2) * dr2 +
            2.0 * FC113 * dr1 * dt + FC123 * dr2 * dt + FC133 * dts) * ROHI;
        f2 = f2 + (3.0 * FC333 * dts + FC113 * (dr1s + dr2s) +
            FC123 * dr1 * dr2 + 2.0 * FC133 * (dr1 + dr2) * dt) * ROHI;
        f3 = f3 + (3.0 * FC111 * dr2s + FC112 * (2.0 * dr2 + dr1) * dr1 +
            2.0 * FC113 * dr2 * dt + FC123 * dr1 * dt + FC133 * dts) * ROHI;
        f1 = f1 + (4.0 * FC1111 * dr1s * dr1 + FC1112 * (3.0 * dr1s + dr2s) *
            dr2 + 2.0 * FC1122 * dr1 * dr2s + 3.0 * FC1113 * dr1s * dt +
            FC1123 * (2.0 * dr1 + dr2) * dr2 * dt + (2.0 * FC1133 * dr1 +
            FC1233 * dr2 + FC1333 * dt) * dts) * ROHI2;
        f2 = f2 + (4.0 * FC3333 * dts * dt + FC1113 * (dr1s * dr1 + dr2s * dr2) +
            FC1123 * (dr1 + dr2) * dr1 * dr2 + 2.0 * FC1133 * (dr1s + dr2s) *
            dt + 2.0 * FC1233 * dr1 * dr2 * dt + 3.0 * FC1333 * (dr1 + dr2) * dts) *
            ROHI2;
        f3 = f3 + (4.0 * FC1111 * dr2s * dr2 + FC1112 * (3.0 * dr2s + dr1s) *
            dr1 + 2.0 * FC1122 * dr1s * dr2 + 3.0 * FC1113 * dr2s * dt +
            FC1123 * (2.0 * dr2 + dr1) * dr1 * dt + (2.0 * FC1133 * dr2 +
            FC1233 * dr1 + FC1333 * dt) * dts) * ROHI2;

        for (int dir = 0; dir < NDIR; dir++)
        {
            final int at = base + MoleculeLayout.f(FORCES, dir, 0);
            final double t1 = f1 * dr11[dir] + f2 * dt1[dir];
            var.set(at + H1, t1);
            final double t2 = f3 * dr23[dir] + f2 * dt3[dir];
            var.set(at + H2, t2);
            var.set(at + O, -(t1 + t2));
        }
    }

    /**
     * {@code INTRAF}'s virial loop body: adds displacement times force of every direction and atom, in that order.
     *
     * @param var  a view of the molecule's record (displacements to FORCES).
     * @param base offset of the molecule's record.
     * @param lvir the running sum.
     * @return the running sum with this molecule's terms added.
     */
    public double virial(final DoubleReadView var, final int base, final double lvir)
    {
        final int dispAt = base + MoleculeLayout.f(DISP, 0, 0);
        final int forcesAt = base + MoleculeLayout.f(FORCES, 0, 0);
        double sum = lvir;
        for (int i = 0; i < FUNCTION_LENGTH; i++)
        {
            sum += var.get(dispAt + i) * var.get(forcesAt + i);
        }
        return sum;
    }

    /**
     * {@code POTENG}'s intramolecular loop body: sets the molecule's VM and adds its bond energy.
     *
     * @param var   an update view of the molecule's VM and displacements.
     * @param base  offset of the molecule's record.
     * @param lpota the running intramolecular energy.
     * @return the running energy with this molecule's added.
     */
    public double potential(final DoubleView var, final int base, final double lpota)
    {
        final double[] d = displacements(var, base);
        for (int dir = 0; dir < NDIR; dir++)
        {
            final int at = dir * NATOM;
            vm[dir] = C1 * d[at + O] + C2 * (d[at + H1] + d[at + H2]);
        }
        setVm(var, base);
        final double dx1 = d[O] - d[H1];
        final double dy1 = d[NATOM + O] - d[NATOM + H1];
        final double dz1 = d[2 * NATOM + O] - d[2 * NATOM + H1];
        final double dx2 = d[O] - d[H2];
        final double dy2 = d[NATOM + O] - d[NATOM + H2];
        final double dz2 = d[2 * NATOM + O] - d[2 * NATOM + H2];
        final double r1 = Math.sqrt(dx1 * dx1 + dy1 * dy1 + dz1 * dz1);
        final double r2 = Math.sqrt(dx2 * dx2 + dy2 * dy2 + dz2 * dz2);
        final double rx = dx1 * dx2 + dy1 * dy2 + dz1 * dz2;
        final double cos = rx / (r1 * r2);
        final double dt = (Math.acos(cos) - ANGLE) * ROH;
        final double dr1 = r1 - ROH;
        final double dr2 = r2 - ROH;
        final double dr1s = dr1 * dr1;
        final double dr2s = dr2 * dr2;
        final double drp = dr1 + dr2;
        final double dts = dt * dt;
        double sum = lpota;
        sum += (FC11 * (dr1s + dr2s) + FC33 * dts) * 0.5 +
            FC12 * dr1 * dr2 + FC13 * drp * dt +
            (FC111 * (dr1s * dr1 + dr2s * dr2) + FC333 * dts * dt + FC112 * drp * dr1 * dr2 +
            FC113 * (dr1s + dr2s) * dt + FC123 * dr1 * dr2 * dt + FC133 * drp * dts) * ROHI;
        sum += (FC1111 * (dr1s * dr1s + dr2s * dr2s) + FC3333 * dts * dts +
            FC1112 * (dr1s + dr2s) * dr1 * dr2 + FC1122 * dr1s * dr2s +
            FC1113 * (dr1s * dr1 + dr2s * dr2) * dt + FC1123 * drp * dr1 * dr2 * dt +
            FC1133 * (dr1s + dr2s) * dts + FC1233 * dr1 * dr2 * dts +
            FC1333 * drp * dts * dt) * ROHI2;
        return sum;
    }

    /**
     * Copies the molecule's displacements into {@link #disp}.
     */
    private double[] displacements(final DoubleReadView var, final int base)
    {
        final double[] d = disp;
        final int from = base + MoleculeLayout.f(DISP, 0, 0);
        for (int i = 0; i < FUNCTION_LENGTH; i++)
        {
            d[i] = var.get(from + i);
        }
        return d;
    }

    private void setVm(final DoubleView var, final int base)
    {
        for (int dir = 0; dir < NDIR; dir++)
        {
            var.set(base + VM_OFFSET + dir, vm[dir]);
        }
    }
}
