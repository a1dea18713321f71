/**
 * SPLASH-2 LU with contiguous blocks, ported from Splash-3's
 * {@code codes/kernels/lu/contiguous_blocks/lu.c.in}: blocked dense LU factorization without pivoting. The n x n
 * matrix is cut into B x B blocks; for each block column K the owner factors the diagonal block, the pivot column
 * and row blocks are divided, then every processor updates the interior blocks it owns. Entry point:
 * {@link org.viadsm.examples.lu.LuApp} ({@code viadsm run lu}).
 *
 * <h2>Flags (as the C program's, same defaults)</h2>
 * <ul>
 *     <li>{@code -nN}: matrix size (default 512).</li>
 *     <li>{@code -bB}: block size (default 16). It need not divide n: the last block row and column are then
 *     narrower, as in C. It must be at most n (C divides by zero otherwise).</li>
 *     <li>{@code -pP}: optional; any team size works, and a {@code -p} that differs from it is refused.</li>
 *     <li>{@code -c}: accepted and ignored, as C does. {@code -s}: every processor's timings; {@code -t}: the
 *     self-check; {@code -o}: print the matrix before and after.</li>
 * </ul>
 *
 * <h2>Input and self-check ({@code -t})</h2>
 * {@code srand48(1)}, then the matrix column by column from {@code lrand48() / 32767.0} (entries reach about 65538,
 * lrand48 having 31 bits), the diagonal multiplied by 10, and the row sums as right-hand side, so that the solution is
 * all ones. The C program's master generates and stores the whole matrix; here every member runs the same generator
 * over the whole matrix and stores only its own blocks, and the master sums the rows in private, in the same order: the
 * matrix and the right-hand side are the C program's bit for bit, and no member writes into another's array (on the DSM
 * the master's stores into the other processors' blocks went out as diffs, 4 096 KiB for {@code -n1024} on 2 nodes).
 * The master solves with the factors and prints {@code TEST PASSED} when every |x_i - 1| is at most 1e-5, else
 * {@code TEST FAILED: (%.5f diff)}, after which the port throws
 * {@link org.viadsm.examples.runtime.VerificationException}. Operation order is C's, so the factors printed with
 * {@code -o} are the C program's for any processor count.
 *
 * <h2>Data layout and synchronization</h2>
 * Splash-3 (following Splash-2x) assigns block (I, J) to processor {@code (I + J nblocks) % P}, the pivot column's
 * division to {@code I % P} and the pivot row's to {@code (J % P + P / 2) % P}; the original SPLASH-2 used a 2D
 * scatter. The port has every block divided, like every other write to it, by its owner, in every mode (sequential,
 * threads and DSM alike, so that they compare the same program): a home-based DSM keeps each processor's blocks in its
 * own memory, and on 2 processors with an even number of block columns every block of row K is processor K % 2's, so
 * the C program's parcelling had the other processor divide half of them in the owner's array, each sent as a diff
 * (1 984 KiB for {@code -n1024} on 2 nodes). The arithmetic per block is the same, so the factors are the same bit for
 * bit; the perimeter's work is less even (on 2 processors the owner of row K divides all of it and half of column K).
 * Each processor's blocks lie contiguously in its own shared array (C: one page-aligned
 * {@code G_MALLOC} per processor), in the order I then J, each block column-major with as many rows as it has.
 * C keeps a shared table of block pointers, written once by the master; Java cannot store references in a shared
 * array, so every member computes the same table privately. The right-hand side and the per-processor times are
 * shared arrays. Per run and member: one lock (the id counter: the port takes it as C does but uses the team id),
 * two barriers before the factorization, two per block column and one after (67 for the default run), no pauses.
 * Differences from C: one barrier after the members' initialization (C initializes before creating the processes),
 * after which the master prints the matrix with {@code -o}, and with {@code -s} one barrier standing for
 * {@code WAIT_FOR_END}, so that the master reads the others' statistics. Timings are
 * {@link org.viadsm.examples.runtime.SplashClock} microseconds.
 * <p>
 * The block kernels ({@code lu0}, {@code bdiv}, {@code bmodd}, {@code bmod} and their {@code daxpy}) work on
 * private copies of whole blocks, copied in bulk after each barrier (the block written after an update view made it
 * writable, and copied back after its kernel; {@code TouchA} sums copies too); the C program works in place, with
 * the same operations in the same order.
 *
 * <h2>Other deviations</h2>
 * Bad values throw {@link java.lang.IllegalArgumentException} from
 * {@link org.viadsm.examples.lu.LuApp#validate(int)}; C checks none of them. n is limited to 46340 so that the
 * matrix fits Java arrays. Flags are picocli options: repeating one is an error where C toggles it.
 */
package org.viadsm.examples.lu;
