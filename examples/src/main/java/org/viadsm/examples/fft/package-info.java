/**
 * SPLASH-2 FFT, ported from Splash-3's {@code codes/kernels/fft/fft.c.in}: a complex one-dimensional FFT of
 * {@code 2^M} points by Bailey's six-step method. The points form a {@code sqrt(N) x sqrt(N)} matrix; each processor
 * owns a contiguous band of rows, and the steps are blocked transpose, 1D FFTs on its rows, twiddle, transpose, 1D
 * FFTs, transpose. Entry point: {@link org.viadsm.examples.fft.FftApp} ({@code viadsm run fft}).
 *
 * <h2>Flags (as the C program's, same defaults)</h2>
 * <ul>
 *     <li>{@code -mM}: 2^M points; M even (default 10; the SPLASH-2 base problem is {@code -m16}).</li>
 *     <li>{@code -pP}: optional. The team size is the processor count: it must be a power of 2 and at most
 *     {@code 2^(M/2)}, as in C; a {@code -p} that differs from the team size is refused.</li>
 *     <li>{@code -nN}: cache lines, for the transpose blocking (default 65536).</li>
 *     <li>{@code -lL}: log2 of the cache line size in bytes (default 4).</li>
 *     <li>{@code -s}: every processor's timings; {@code -t}: forward then inverse FFT, with the self-check;
 *     {@code -o}: print the data points.</li>
 * </ul>
 *
 * <h2>Self-check ({@code -t})</h2>
 * The master sums re + im of the input before, and of the data after the forward and inverse FFT, prints
 * {@code Checksum difference is %.3f (%.3f, %.3f)} and {@code TEST PASSED} when the difference is below 0.001,
 * else {@code TEST FAILED}, after which the port throws
 * {@link org.viadsm.examples.runtime.VerificationException}. The input is {@code srand48(0)} then {@code drand48()}
 * re, im row by row; the twiddle factors use the C program's {@code #define PI 3.1416} and {@link Math#cos} /
 * {@link Math#sin}, which give bit-identical checksums to glibc's on x86-64 for M = 4 to 20 (they may differ from
 * glibc by an ulp for some angles; the printed lines matched with {@link StrictMath} too). The numbers do not depend
 * on the processor count. The port reproduces the C program's behaviour even where it is wrong: with
 * {@code -m12 -l3 -n100} on one processor the blocked transpose copies nothing and both print
 * {@code TEST FAILED}.
 *
 * <h2>Output</h2>
 * Member 0 prints the C program's lines in the same formats. Splash-3's FFT also prints debugging lines from every
 * process ({@code iter_num = }, {@code Step k:}, {@code Transpose: iter_num = }, and {@code FFt1DOnce: iter_num = }
 * once); the port prints member 0's, so with one member the output matches the C program's line for line,
 * timings aside. Timings are {@link org.viadsm.examples.runtime.SplashClock} microseconds (Splash-3's pthread
 * {@code CLOCK} counts seconds).
 *
 * <h2>Data layout and synchronization</h2>
 * {@code x}, the scratch matrix and {@code umain2} (the twiddle matrix) are shared arrays of
 * {@code 2 (N + rootN pad_length)} doubles, every row padded by {@code pad_length} complex numbers so that each
 * processor's band ends on a 4 KB page; C aligns them to a page by hand, the port relies on allocations starting
 * on a page and drops the spare page. {@code umain} (roots of unity of the 1D FFTs) is shared; each member copies it
 * into a private {@code upriv}, as in C. Per run and member: one lock (the id counter: the port takes it as C does
 * but uses the team id), two barriers in {@code SlaveStart} and five per FFT pass, no pauses. Differences from C:
 * one barrier after member 0's initialization (C initializes before creating the processes), and with {@code -s}
 * one barrier standing for {@code WAIT_FOR_END}, so that the master reads the others' statistics. Each transpose
 * makes views after the barrier before it: an update view of the processor's rows of the matrix it writes and a
 * read view of the part of each source block's rows it copies, so only those pages are fetched, each range in one
 * fault. The steps then work on private copies, copied in bulk: the transpose a 32 by 32 tile at a time, the 1D
 * FFTs, twiddle and scaling a row at a time (with its row of {@code umain2}); the C program works in place, with the
 * same operations in the same order.
 *
 * <h2>Other deviations</h2>
 * Bad values throw {@link java.lang.IllegalArgumentException} from
 * {@link org.viadsm.examples.fft.FftApp#validate(int)} where C prints an error and exits; the port also refuses
 * values on which C crashes or overflows ({@code -n}/{@code -l} that leave no cache line for the blocking,
 * {@code M > 30}, {@code L > 30}). Flags are picocli options: repeating one is an error where C toggles it, and
 * {@code -h} prints picocli's usage.
 */
package org.viadsm.examples.fft;
