package org.viadsm.examples.waternsq;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;
import org.viadsm.examples.runtime.Team;
import org.viadsm.examples.water.Energies;
import org.viadsm.examples.water.GlobalLayout;
import org.viadsm.examples.water.Integrator;
import org.viadsm.examples.water.IntraMolecular;
import org.viadsm.examples.water.MolecularDynamics;
import org.viadsm.examples.water.MoleculeLayout;
import org.viadsm.examples.water.PairInteraction;
import org.viadsm.examples.water.WaterSystem;

import static org.viadsm.examples.water.MoleculeLayout.DISP;
import static org.viadsm.examples.water.MoleculeLayout.LENGTH;
import static org.viadsm.examples.water.MoleculeLayout.NDIR;
import static org.viadsm.examples.water.MoleculeLayout.O;
import static org.viadsm.examples.waternsq.NsquaredLayout.FORCE_LENGTH;

/**
 * WATER-NSQUARED's phases over this member's static block of molecules [StartMol[id], StartMol[id + 1]): every
 * pair of molecules interacts once, computed by the owner of the lower-numbered one in a half-ring
 * (mol + 1 ... mol + NMOL/2, wrapping), into a private force block that is then added to the shared molecules under
 * their locks.
 * <p>
 * The kernels work on views (see {@link MolecularDynamics}): each phase makes them after its last synchronization,
 * an update view of this member's block of records where it writes them, read views of the records the pair loops
 * read (this member's block and its half ring, two ranges when the ring wraps); under each molecule's lock, the
 * one force block it adds is copied in and out whole.
 */
final class NsquaredSimulation extends MolecularDynamics
{
    private final DoubleArray var;
    private final DoubleArray pforces;
    private final int nmol;
    private final int start;
    private final int end;
    private final int forceBase;
    private final double boxl;
    private final Integrator integrator;
    private final IntraMolecular intra = new IntraMolecular();
    private final PairInteraction pair;
    private final int ownFrom;
    private final int ownTo;
    private DoubleView own;
    private DoubleReadView ownRead;
    private DoubleReadView ring;
    private DoubleReadView wrapped;
    private DoubleView privateForces;
    private final double[] sum = new double[FORCE_LENGTH];
    private final double[] term = new double[FORCE_LENGTH];

    NsquaredSimulation(
        final Team team,
        final DoubleArray var,
        final DoubleArray gl,
        final DoubleArray pforces,
        final WaterSystem system,
        final int[] startMol)
    {
        super(team, gl, system, true);
        this.var = var;
        this.pforces = pforces;
        this.nmol = system.nmol();
        this.start = startMol[id];
        this.end = startMol[id + 1];
        this.forceBase = id * nmol * FORCE_LENGTH;
        this.boxl = system.boxl();
        this.integrator = new Integrator(system);
        this.pair = new PairInteraction(system);
        this.ownFrom = start * LENGTH;
        this.ownTo = end * LENGTH;
    }

    /**
     * The static partition: MolsPerProc = NMOL / P molecules each, the last processor also takes the remainder.
     *
     * @param nmol  number of molecules.
     * @param procs number of processors.
     * @return StartMol[0 .. procs].
     */
    static int[] startMol(final int nmol, final int procs)
    {
        final int molsPerProc = nmol / procs;
        final int[] startMol = new int[procs + 1];
        for (int pid = 1; pid < procs; pid++)
        {
            startMol[pid] = startMol[pid - 1] + molsPerProc;
        }
        startMol[procs] = nmol;
        return startMol;
    }

    @Override
    protected void intraf()
    {
        final DoubleView own = ownUpdate();
        for (int mol = start; mol < end; mol++)
        {
            intra.forces(own, mol * LENGTH);
        }
        double lvir = 0.0;
        for (int mol = start; mol < end; mol++)
        {
            lvir = intra.virial(own, mol * LENGTH, lvir);
        }
        addShared(NsquaredLayout.INTRAF_VIR_LOCK, GlobalLayout.VIR, lvir);
    }

    /**
     * The last molecule (before wrapping) that {@code mol} interacts with: half the ring, adjusted for an even NMOL so
     * that each pair is computed exactly once.
     */
    private int compLast(final int mol)
    {
        final int halfMol = nmol / 2;
        int compLast = mol + halfMol;
        if (0 == nmol % 2)
        {
            if (halfMol <= mol && 0 == mol % 2)
            {
                compLast--;
            }
            if (mol < halfMol && 1 == compLast % 2)
            {
                compLast--;
            }
        }
        return compLast;
    }

    @Override
    protected void interf(final int dest)
    {
        final DoubleView forces = pforces.write(forceBase, forceBase + nmol * FORCE_LENGTH, privateForces);
        privateForces = forces;
        for (int i = forces.from(); i < forces.to(); i++)
        {
            forces.set(i, 0.0);
        }
        pair.resetSums();
        final int compLast = halfRingPairs(true);
        addShared(NsquaredLayout.INTERF_VIR_LOCK, GlobalLayout.VIR, pair.virial());

        // compLast is the last molecule (no modulo) this member touched.
        if (compLast > nmol - 1)
        {
            for (int mol = start; mol < nmol; mol++)
            {
                addForces(mol, dest);
            }
            final int comp = compLast % nmol;
            for (int mol = 0; mol <= comp && mol < start; mol++)
            {
                addForces(mol, dest);
            }
        }
        else
        {
            for (int mol = start; mol <= compLast; mol++)
            {
                addForces(mol, dest);
            }
        }

        team.barrier();

        final DoubleView own = ownUpdate();
        for (int mol = start; mol < end; mol++)
        {
            integrator.scaleByMass(own, mol * LENGTH, dest);
        }
    }

    /**
     * An update view of this member's block of molecule records, made anew (no allocation) after a synchronization.
     */
    private DoubleView ownUpdate()
    {
        own = var.update(ownFrom, ownTo, own);
        return own;
    }

    /**
     * The pair loops of {@code INTERF} and {@code POTENG}: each of this member's molecules with the next half ring
     * of molecules; the pair's forces, added to both molecules' private force blocks, or the pair's energy.
     *
     * @return the last molecule (before wrapping) of the last molecule's half ring.
     */
    private int halfRingPairs(final boolean forces)
    {
        final DoubleReadView ring = readRing();
        final DoubleReadView wrapped = compLast(end - 1) < nmol ? ring : this.wrapped;
        final DoubleView dst = privateForces;
        int compLast = start;
        for (int mol = start; mol < end; mol++)
        {
            compLast = compLast(mol);
            pair.first(ring, mol * LENGTH);
            for (int icomp = mol + 1; icomp <= compLast; icomp++)
            {
                final int comp = icomp > nmol - 1 ? icomp % nmol : icomp;
                pair.second(comp >= start ? ring : wrapped, comp * LENGTH);
                if (!forces)
                {
                    pair.potential();
                }
                else if (pair.forces())
                {
                    pair.addToFirst(dst, forceBase + mol * FORCE_LENGTH);
                    pair.addToSecond(dst, forceBase + comp * FORCE_LENGTH);
                }
            }
        }
        return compLast;
    }

    /**
     * Read views of the records the pair loops read: {@link #ring} from this member's first molecule to the last
     * one its half rings reach, or to the end when they wrap, and then {@link #wrapped} from molecule 0 to the last
     * one reached after wrapping.
     *
     * @return {@link #ring}.
     */
    private DoubleReadView readRing()
    {
        final int last = compLast(end - 1);
        if (last < nmol)
        {
            ring = var.read(ownFrom, (last + 1) * LENGTH, ring);
        }
        else
        {
            ring = var.read(ownFrom, nmol * LENGTH, ring);
            wrapped = var.read(0, (last - nmol + 1) * LENGTH, wrapped);
        }
        return ring;
    }

    /**
     * Adds this member's private force block of {@code mol} to the molecule's shared one under the molecule's lock,
     * copied in and out whole (no view accessor inside the critical section): C2 inlines the lock's acquire and
     * release into this method, or into {@code interf} with it, and they use up the compile's budget of IR nodes;
     * the nine elements read and written through views then stayed calls, three per element, or the views' checks
     * did (NodeCountInliningCutoff).
     */
    private void addForces(final int mol, final int dest)
    {
        final int lock = NsquaredLayout.MOL_LOCK + mol % NsquaredLayout.MAXLCKS;
        final int to = mol * LENGTH + MoleculeLayout.f(dest, 0, 0);
        final int from = forceBase + mol * FORCE_LENGTH;
        final double[] sum = this.sum;
        final double[] term = this.term;
        team.lock(lock);
        try
        {
            var.get(to, sum, 0, FORCE_LENGTH);
            pforces.get(from, term, 0, FORCE_LENGTH);
            for (int i = 0; i < FORCE_LENGTH; i++)
            {
                sum[i] = sum[i] + term[i];
            }
            var.set(to, sum, 0, FORCE_LENGTH);
        }
        finally
        {
            team.unlock(lock);
        }
    }

    @Override
    protected void predic()
    {
        final int norder = integrator.norder();
        final DoubleView own = ownUpdate();
        for (int func = 0; func < norder; func++)
        {
            for (int mol = start; mol < end; mol++)
            {
                integrator.predict(own, mol * LENGTH, func);
            }
        }
    }

    @Override
    protected void correc()
    {
        final DoubleView own = ownUpdate();
        for (int mol = start; mol < end; mol++)
        {
            integrator.correct(own, mol * LENGTH);
        }
    }

    @Override
    protected void bndry()
    {
        final DoubleView own = ownUpdate();
        for (int mol = start; mol < end; mol++)
        {
            for (int dir = 0; dir < NDIR; dir++)
            {
                final int at = mol * LENGTH + MoleculeLayout.f(DISP, dir, 0);
                final double o = own.get(at + O);
                if (o > boxl)
                {
                    Integrator.translate(own, at, -boxl);
                }
                else if (o < 0.00)
                {
                    Integrator.translate(own, at, boxl);
                }
            }
        }
    }

    @Override
    protected void kineti()
    {
        for (int dir = 0; dir < NDIR; dir++)
        {
            // Made for every direction: the lock of the previous one ended the last view.
            final DoubleReadView velocities = var.read(ownFrom, ownTo, ownRead);
            ownRead = velocities;
            double s = 0.0;
            for (int mol = start; mol < end; mol++)
            {
                s += Integrator.kinetic(velocities, mol * LENGTH, dir);
            }
            addShared(NsquaredLayout.KINETI_SUM_LOCK, GlobalLayout.SUM + dir, s);
        }
    }

    @Override
    protected void poteng()
    {
        double lpota = 0.0;
        final DoubleView own = ownUpdate();
        for (int mol = start; mol < end; mol++)
        {
            lpota = intra.potential(own, mol * LENGTH, lpota);
        }

        team.barrier();

        pair.resetSums();
        halfRingPairs(false);
        addPotentials(NsquaredLayout.POTENG_SUM_LOCK, lpota, pair.potr(), pair.potrf());
    }

    @Override
    protected void print(final Energies energies)
    {
        energies.printNsquared(team.out());
    }
}
