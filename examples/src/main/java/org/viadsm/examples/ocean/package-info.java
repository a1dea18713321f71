/**
 * OCEAN with contiguous partitions, ported from SPLASH-2 ({@code codes/apps/ocean/contiguous_partitions} of
 * Splash-3): large-scale currents in a square two-layer ocean basin driven by wind stress, with a W-cycle
 * multigrid solver (red-black Gauss-Seidel, half-injection) for the two elliptic equations of every time step.
 *
 * <h2>Options</h2>
 * The C program's flags and defaults; its {@code -p} is the team size.
 * <ul>
 *   <li>{@code -nN}: N x N grid, N = (power of 2) + 2; default 258.</li>
 *   <li>{@code -eE}: tolerance of the multigrid solver; default 1e-7.</li>
 *   <li>{@code -rR}: grid spacing in metres; default 20000.</li>
 *   <li>{@code -tT}: time step in seconds; default 28800 (6 steps to day 2, plus the one-time solve).</li>
 *   <li>{@code -s}: timing statistics of every member; {@code -o}: one line per multigrid solve,
 *       {@code iter I, level L, residual norm R, work = W}; {@code -h}: usage.</li>
 * </ul>
 * Refused as the C program refuses them, with an {@link java.lang.IllegalArgumentException} naming the option: a
 * grid size that is not (power of 2) + 2 ({@code -n}), a team size that is not a power of 2 ({@code -p}), a grid
 * too small for the team (fewer than 2 points per member at every level, {@code -n}). The port also refuses a
 * time step that is not positive ({@code -t}), on which the C program loops forever.
 *
 * <h2>Output</h2>
 * Member 0 prints the C program's header, the multigrid lines with {@code -o}, its process statistics and timing
 * information. Times are microseconds (the C {@code CLOCK} of the POSIX macros). The multigrid lines are the
 * C program's, character for character: the level printed is the finest level's number, which depends on the team
 * size (the C program drops the levels too coarse to give every processor 2 points); iterations, residuals and
 * work do not depend on it, except when the team is large enough for those dropped levels to change the W cycle
 * (e.g. {@code -n18} on 8 members). With one or two members the computation is the C program's bit for bit; with
 * more, two sums taken under a lock ({@code psiai}, {@code psibi}) add the members' parts in lock order, which
 * varies from run to run, as in the C program. The wind-stress sines are rounded correctly, which agrees with
 * glibc except on its rare non-correctly-rounded arguments (one column of {@code -n258}, where the last digits
 * of some residuals differ; the printed 9 digits agree).
 *
 * <h2>Self-check</h2>
 * The C program only prints residuals (its {@code correct.out} holds the default run's lines, which this port
 * reproduces apart from one work figure its C library rounded up: 13.563 for 13.5625). The port checks what
 * those lines promise: every multigrid solve must end below the tolerance (a NaN residual ends the C solver's
 * loop as if converged), the work limit of 10000 sweeps must not be exceeded (the C program exits with an error),
 * and at the end every point of the stream functions and their daily sums must be finite. A failure throws
 * {@link org.viadsm.examples.runtime.VerificationException}.
 *
 * <h2>Layout, barriers and locks</h2>
 * Each of the 25 single-level grids is one shared array holding one contiguous block per member (its interior
 * points and a one-point border), members in order; {@code q_multi} and {@code rhs_multi} are one shared array
 * each, holding per member its block of every level, coarsest first. Constants and the level and neighbour tables
 * the C master computes before starting the workers depend only on the options, so each member computes them
 * privately; the shared scalars the master initialises are zero, as every allocation is. So the port needs no
 * start-up barrier and runs exactly the C program's barriers and locks (e.g. 1080 barriers and 251 lock
 * acquisitions per member for {@code -n34}); with {@code -s} one more barrier stands for the C master joining the
 * workers before it reads their times. Locks keep the C numbering: 0 {@code idlock}, 1 {@code psiailock},
 * 2 {@code psibilock}, 4 {@code error_lock}.
 * <p>
 * Point-wise loops (stencils, relaxation, restriction and interpolation, the phases' updates, border columns) run
 * over views made when each operation starts, after the member's last synchronization: read views of the blocks
 * read, update views of the points written (the points the member owns, the interior, or the border), reused from
 * one operation to the next; border rows and block copies are bulk copies.
 *
 * <h2>Other deviations</h2>
 * The workers' ids come from the team rather than the C program's shared counter (the counter is still bumped
 * under {@code idlock}). The multigrid level tolerances ({@code lev_tol}) are private: in the C program every
 * processor writes the same value into the shared array before reading it. The C code's element-wise updates,
 * written region by region (corners, edges, interior), run row by row over the same points; sums keep the C
 * order. The C code sets {@code work3 = h3/h * work3 + h1/h * psi3} where its comment says {@code psi1}; the port
 * does what the code does.
 */
package org.viadsm.examples.ocean;
