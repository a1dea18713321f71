/**
 * BARNES, the SPLASH-2 Barnes-Hut N-body simulation, ported from Splash-3 ({@code codes/apps/barnes}) to run on a
 * {@link org.viadsm.examples.runtime.Team}.
 *
 * <h2>Running</h2>
 * {@code viadsm run barnes [INPUT] [--no-optional-locks]}. The processor count is the team size.
 * <ul>
 *   <li>{@code INPUT}: a parameter file in the C program's format ({@code BARNES < input}), or {@code -} for
 *   standard input (read once and shared by the members of a threaded team; a multi-process run needs a file).
 *   Without it the run uses the SPLASH input {@code inputs/n16384-p1}: 16384 bodies, seed 123, dtime 0.025,
 *   eps 0.05, tol 1.0, fcells 2.0, fleaves 5.0, tstop 0.075, dtout 0.25, i.e. four steps.</li>
 *   <li>{@code --no-optional-locks}: as the C built with {@code -DWITH_NO_OPTIONAL_LOCKS}: no lock around the
 *   reads and writes of body positions in the force walk and the update (Splash-3 takes one per body-body
 *   interaction; with the diagnostics barrier below they guard no race).</li>
 * </ul>
 *
 * <h2>Input format</h2>
 * Twelve lines, one parameter each: particle input file, nbody, seed, output file, dtime, eps, tol, fcells, fleaves,
 * tstop, dtout, NPROC. A blank line, or a missing line at the end, takes the C's built-in default (nbody 16384,
 * seed 123, dtime 0.025, eps 0.05, tol 1.0, fcells 2.0, fleaves 0.5, tstop 0.075, dtout 0.25, NPROC 1). The first
 * line must be blank: the C program would read particles from that file and then overwrite them with a generated
 * model, so the port rejects it. The output file is accepted and ignored, as in the SPLASH release. NPROC is
 * ignored in favour of the team size; when they differ the master prints a note first. A line that is not a number
 * of the right kind, a negative value, or a zero dtime, fcells or fleaves fails with an
 * {@link java.lang.IllegalArgumentException} naming the file and line; so does a missing file.
 *
 * <h2>Output</h2>
 * The master prints the C's heading and parameter table, then one line per step (the C program computes these
 * diagnostics in {@code output()} but never calls it; see {@code Diagnostics}): step, time, total, kinetic and
 * potential energy, the lengths of the centre-of-mass position and velocity, and the step's body-body and
 * body-cell interaction counts and missed self-interactions, formatted by C {@code printf} rules. The same output
 * added to the C program gives identical lines: for 16384 bodies the energies agree to about 1e-14 relative across
 * 1, 2 and 4 processors (summation order in the tree and the reductions differs), far below the 10 printed decimals.
 * Then the phase times in milliseconds (the C prints seconds).
 *
 * <h2>Self-check</h2>
 * Every step: every body in exactly one processor's share, total mass 1, all values finite, and (from 128 bodies)
 * total energy within 1% of its first value; a failure throws
 * {@link org.viadsm.examples.runtime.VerificationException}. The C program has no self-check.
 *
 * <h2>Shared data and synchronization</h2>
 * Bodies, cells, leaves, {@code Global} and the per-processor pointer tables are shared arrays in the C's allocation
 * order, described by the {@code *Layout} classes; pointers are indices. Cells and leaves come from per-processor
 * regions. Barriers are the C's ({@code Barstart} once before the first step, then {@code Barstart},
 * {@code Bartree}, {@code Barcom}, {@code Barpos} each step), plus the diagnostics' {@code Baraccel} each step and
 * one barrier after the master's initialisation (the C master initialises before creating the workers). Locks are
 * the C's: {@code CountLock}, {@code io_lock} and the 2048 cell locks.
 *
 * <h2>Deviations</h2>
 * <ul>
 *   <li>The diagnostics call, line and {@code Baraccel} barrier described above; the master clears the global sums
 *   after printing, which the C's unused {@code output()} never does.</li>
 *   <li>Waiting for a child's centre of mass re-acquires the child's lock after a back-off instead of waiting on a
 *   condition variable: with several processors, more lock acquisitions than the C.</li>
 *   <li>A processor stores its bodies' new costs after {@code Baraccel} instead of during the force walk, closing
 *   the C's race between the cost-zone partition and the force computation (see {@code BarnesMember}); the lines
 *   equal those of the C program with its commented-out barrier restored, which are the same for every processor
 *   count, where the unmodified C program on several processors intermittently prints wrong values.</li>
 *   <li>The C's {@code error()} prints and carries on (and usually overruns a table); the port throws
 *   {@link java.lang.IllegalStateException}, e.g. "makeleaf: Proc 0 needs more than 640 leaves; increase fleaves".
 *   As in the C, the master's leaf pool is never rewound, so long runs need a large fleaves.</li>
 *   <li>The Plummer model uses {@link java.lang.Math#pow}, which rounds about 0.1% of its results differently from
 *   glibc's {@code pow} (neither is correctly rounded): in the default run 9 of the 8192 velocity scalings differ
 *   in the last bit, and through the centre-of-mass correction 635 of the 16384 initial velocities; positions and
 *   the random stream are identical, energies agree to the last bit on one processor, and the printed lines are
 *   identical.</li>
 *   <li>A processor stores its bodies' potentials, accelerations and velocities after its last body's force walk,
 *   and in the update all new velocities and costs before the positions (each position still in its critical
 *   section), where the C stores each body's fields as it goes: no processor reads them before the next barrier, so
 *   the shared bodies at every barrier are the C's, and on a DSM a page is made dirty once per phase rather than
 *   again after each of the optional locks' releases (see {@code BarnesMember}).</li>
 *   <li>A cell or leaf takes its lock from a slice of the 2048 cell locks that belongs to the processor that made
 *   it, where the C takes {@code CL[seqnum % MAXLOCK]}: with each processor's pool starting at a multiple of 2048,
 *   the C gives the k-th node of every processor the same lock, and so makes unrelated nodes that the processors
 *   use at the same time pass one lock between them (see {@code CellLocks}). The same critical sections, as many
 *   acquisitions, and on one processor the C's mapping.</li>
 *   <li>Cells and leaves are each one array of per-processor regions rather than interleaved per-processor
 *   allocations; each record is split into a real and an integer array.</li>
 * </ul>
 */
package org.viadsm.examples.barnes;
