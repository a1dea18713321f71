/**
 * WATER-NSQUARED, ported from SPLASH-2 ({@code codes/apps/water-nsquared}): molecular dynamics of liquid water
 * (flexible H-O-H molecules with intramolecular bond forces and a Coulomb plus exponential
 * intermolecular potential under a spherical cutoff with periodic boundaries), integrated with a sixth-order Gear
 * predictor-corrector. Every processor owns a contiguous block of molecules and computes each pair of molecules
 * once, over half the ring of molecules, into a private force block that it then adds to the shared molecules under
 * per-molecule locks.
 *
 * <h2>Command line</h2>
 * {@code water-nsquared [INPUT] [--velocities FILE] [--write-velocities FILE]}
 * <ul>
 * <li>{@code INPUT}: the input deck, {@code TSTEP NMOL NSTEP NORDER NSAVE NRST NPRINT NFMC NumProcs CUTOFF}
 * separated by white space, read with the C program's {@code scanf} rules (integers end at the first non-digit,
 * anything after the tenth field is ignored). Without it the deck is read from standard input, as the C program
 * reads it. The SPLASH default run is {@code 1.5e-16 512 3 6 -1 3000 3 0 P 6.212752}.</li>
 * <li>{@code --velocities FILE}: the numbers the initial velocities are made from, in the format of the C
 * program's {@code random.in} (one discarded number, then x, y, z per atom and molecule: 1 + 9 * NMOL numbers).
 * Default: {@code ./random.in} if it exists, as the C program does; otherwise the port generates them
 * ({@link org.viadsm.examples.water.Velocities#generate(int)}: drand48 seeded with 1023, standard normal by the
 * polar method, limited to [-4, 4]).</li>
 * <li>{@code --write-velocities FILE}: writes the numbers used in {@code random.in}'s format, exactly enough that
 * the C program run with that file as its {@code random.in} prints what the port prints.</li>
 * </ul>
 *
 * <h2>Output</h2>
 * The C program's lines: the deck, the run summary, the lattice (NS, BOXL, CUTOFF, XS, ZERO, WCOS, WSIN), then
 * every NPRINT steps two lines of energies in kT per atom (step, kinetic TEN, intramolecular POTA, intermolecular
 * POTR, reaction field POTRF; total XTT, average temperature AVGT, virial XVIR), the clock lines (whole seconds, as
 * {@code time(0)}) and "Exited Happily with XTT". On one processor the port prints the C program's lines digit for
 * digit. On several, both programs add the processors' partial sums under locks in whatever order the processors
 * arrive, so the last bits can change from run to run and between processor counts; the printed digits have been
 * identical across runs and counts (1 to 8, 512 molecules, 40 steps) in every comparison made.
 *
 * <h2>Self-check</h2>
 * {@link org.viadsm.examples.water.EnergyCheck}: every printed energy is finite, the kinetic energy and temperature
 * positive, and the total energy XTT stays within a tenth of the first printed kinetic energy of its first printed
 * value; otherwise the run fails with {@link org.viadsm.examples.runtime.VerificationException}.
 *
 * <h2>Fidelity and deviations</h2>
 * The molecules, the global sums, the private force blocks (G_MALLOCed in C) and the synchronization follow the C
 * program (see {@code NsquaredLayout}): the same partition, loops, summation order, barriers and locks; a run
 * acquires exactly as many locks and, per member, passes one barrier more than the C program.
 * <ul>
 * <li>The deck's NumProcs is replaced by the team size (member 0 notes a difference on standard error).</li>
 * <li>A short or malformed deck or velocities file throws {@link IllegalArgumentException} naming the file, line
 * and field where the C program warns and runs on undefined values; so do a molecule count that is not a cube (the
 * C program's "Lattice init error"), fewer molecules than members, NPRINT &lt; 1 and NORDER outside [3, 7].</li>
 * <li>The C master initializes the molecules before it creates the workers; in the port every member allocates,
 * member 0 initializes, and a barrier (the extra one) releases the others.</li>
 * <li>Process ids come from the team; the C program's IndexLock-protected counter is still incremented, once per
 * member.</li>
 * <li>CSHIFT's last five distances (O-O, O-H, H-O) are computed only when a site pair is inside the cutoff; when
 * none is, the C program computes and never reads them.</li>
 * <li>XTT is printed as 0 when no energy was computed (NPRINT &gt; NSTEP), where the C program prints an
 * uninitialized value.</li>
 * </ul>
 */
package org.viadsm.examples.waternsq;
