/**
 * WATER-SPATIAL, ported from SPLASH-2 ({@code codes/apps/water-spatial}): the molecular dynamics of
 * WATER-NSQUARED on a 3-d grid of boxes at least one cutoff radius wide. Every box holds a linked list of the
 * molecules whose oxygen lies in it; every processor owns a block of boxes, computes the forces on its molecules
 * from the molecules in the 27 neighbouring boxes (each pair from both ends, so no locks on forces), and after each
 * step moves the molecules that left their box to their new box's list under the boxes' locks.
 *
 * <h2>Command line, input and output</h2>
 * As WATER-NSQUARED (see {@link org.viadsm.examples.waternsq}): {@code water-spatial [INPUT] [--velocities FILE]
 * [--write-velocities FILE]}, the same deck and velocities file, the same energy lines printed in two statements
 * under IOLock. The program also prints the box count, the processor grid (xprocs, yprocs, zprocs) and its slabs,
 * BOX_LENGTH and BOX_PER_SIDE. BOX_PER_SIDE is BOXL / CUTOFF rounded down: there must be at least as many boxes as
 * members, so small systems need a CUTOFF below the default (the SPLASH decks use 6.212752).
 *
 * <h2>Self-check</h2>
 * {@link org.viadsm.examples.water.EnergyCheck} as in WATER-NSQUARED, and at the end member 0 checks that the box
 * lists hold every molecule exactly once, each in the box its oxygen lies in; otherwise the run fails with
 * {@link org.viadsm.examples.runtime.VerificationException}.
 *
 * <h2>Fidelity and deviations</h2>
 * The port follows the original SPLASH-2 program: Splash-3 declares the lattice coordinates of its
 * {@code INITIA} {@code long}, which truncates the positions and prints nonsense temperatures; here they are
 * {@code double}, as in SPLASH-2. Links, box list heads, the partition and the global sums are shared arrays laid
 * out as in C (see {@code SpatialLayout}), with the same loops, summation order, barriers and locks: a run acquires
 * exactly as many locks and, per member, passes one barrier more than the C program. The deviations of
 * WATER-NSQUARED's port apply (team size, input errors, the initialization barrier, process ids, CSHIFT, XTT); in
 * addition each processor's list of its boxes, G_MALLOCed in C but built and read by its owner only, is private,
 * and the pair loops copy the own box's list and coordinates (unchanged during those loops) once per box rather
 * than reading them again for every neighbour.
 * <p>
 * Two races of the C program are kept, since they decide its synchronization: {@code KINETI} follows
 * {@code BNDRY} without a barrier, so a processor may sum its boxes' kinetic energy while another is moving a
 * molecule into or out of them; and {@code BNDRY} unlinks the head of a list by overwriting the list head, which
 * drops a molecule another processor has just pushed onto the same list. Neither happens while no molecule crosses
 * between boxes of different processors (the SPLASH 512-molecule runs and the tests); once molecules do, runs on
 * several processors can print different energies from run to run, in C as in the port, and a dropped molecule
 * fails the self-check.
 */
package org.viadsm.examples.waterspatial;
