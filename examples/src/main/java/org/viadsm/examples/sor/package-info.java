/**
 * Red-black successive over-relaxation (SOR), the benchmark TreadMarks and JIAJIA ship for page-based DSMs; there
 * is no SPLASH source, so this follows the usual description of it.
 *
 * <h2>Problem</h2>
 * A grid of {@code (M + 2) x (N + 2)} doubles in one shared array, row-major: {@code M x N} interior points and a
 * fixed boundary (1 along the top, falling linearly from 1 to 0 down the left edge, 0 on the right and bottom
 * edges; not symmetric, so a misplaced row changes the checksum). The interior starts at 0. Point (i, j) is red
 * when i + j is even. An iteration relaxes every red point, then every black point:
 * {@code p = w * (up + down + left + right) * 0.25 + (1 - w) * p}; with the default w = 1 that is the classic
 * kernel, each point becoming the average of its four neighbours, and 1 &lt; w &lt; 2 over-relaxes.
 *
 * <h2>Parallel structure</h2>
 * The interior rows are split into contiguous bands, member p taking rows {@code 1 + M*p/P} to {@code M*(p+1)/P}.
 * Member 0 writes the boundary, then a barrier; each iteration is a red sweep, a barrier, a black sweep, a barrier;
 * then every member sums its rows into a shared array of row sums and a last barrier lets member 0 add them up:
 * {@code 2 * I + 2} barriers, no locks. Members share only the rows next to their band. A sweep reads through a
 * view of its band and the two rows next to it and writes through an update view of the band's interior points,
 * both made after the barrier before it.
 *
 * <h2>Options</h2>
 * <ul>
 *   <li>{@code -mM}: interior rows; default 2000.</li>
 *   <li>{@code -nN}: interior columns; default 1000.</li>
 *   <li>{@code -iI}: iterations; default 50.</li>
 *   <li>{@code -wW}: relaxation factor; default 1.</li>
 *   <li>{@code -t}: check the result against a sequential run (as the SPLASH kernels' {@code -t}).</li>
 * </ul>
 * Refused with an {@link java.lang.IllegalArgumentException} naming the option: fewer than one row or column,
 * fewer rows than members, a grid too large for one array, a negative iteration count, a factor that is not
 * finite.
 *
 * <h2>Output and self-check</h2>
 * Member 0 prints a summary line, {@code Checksum: %.15e} (the sum of the row sums in row order, each row summed
 * left to right) and the iteration time in microseconds. With {@code -t} it then runs the same iterations on a
 * plain Java array in one thread and compares the two checksums bit for bit: within a colour no update reads
 * another of the same colour, so the order of updates, and hence the number of members, cannot change any value.
 * A difference throws {@link org.viadsm.examples.runtime.VerificationException}; a match prints
 * {@code TEST PASSED}.
 */
package org.viadsm.examples.sor;
