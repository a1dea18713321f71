/**
 * SPLASH-2 RADIX, ported from Splash-3's {@code codes/kernels/radix/radix.c.in}: an integer radix sort. For each
 * digit every processor builds a histogram of its contiguous share of the keys, the processors combine their
 * histograms up and down a binary prefix tree whose nodes are handed over with pauses, and each processor then
 * moves its keys to their ranks in the other key array. Entry point: {@link org.viadsm.examples.radix.RadixApp}
 * ({@code viadsm run radix}).
 *
 * <h2>Flags (as the C program's, same defaults)</h2>
 * <ul>
 *     <li>{@code -nN}: number of keys (default 262144; the SPLASH-2 paper's input is {@code -n1048576}).</li>
 *     <li>{@code -rR}: radix, a power of 2 (default 1024).</li>
 *     <li>{@code -mM}: maximum key (default 67108864, the code's default; its usage comment says 524288).</li>
 *     <li>{@code -pP}: optional; a {@code -p} that differs from the team size is refused.</li>
 *     <li>{@code -s}: every processor's timings; {@code -t}: the self-check; {@code -o}: print the sorted keys.</li>
 * </ul>
 *
 * <h2>Keys and self-check ({@code -t})</h2>
 * The keys come from the C program's own generator: r' = r 5^13 mod 2^46 from 314159265, four randoms per key,
 * each processor jumping ahead to its first key so that the keys do not depend on the processor count (see
 * {@code RadixKeys}). The master checks that no key is greater than the next and prints
 * {@code PASSED: All keys in place.} or {@code FAILED: %ld keys out of place.}, after which the port throws
 * {@link org.viadsm.examples.runtime.VerificationException} naming the first misplaced key (C prints every one to
 * stderr). The keys printed with {@code -o} are the C program's.
 *
 * <h2>Data layout and synchronization</h2>
 * Shared, as in C: the two key arrays, the key and rank partitions, the per-processor times, {@code rank_me}
 * (P row pointers, here row offsets written by the master, then P rows of {@code radix} counts), one
 * {@code rank_ff} array per processor (radix entries and a page of slack, as C allocates), one {@code key_density}
 * array per processor (C allocates it in each process; allocation is collective here, so all are made at the
 * start), and the global structure: a small header ({@code Index}, {@code final}, times) followed by the prefix
 * tree of 2P nodes, each {@code densities[radix]}, {@code ranks[radix]} and a page of padding. C reserves
 * {@code MAX_RADIX} = 4096 entries per node array (140 MB for its 2048 nodes); the port sizes them by the radix,
 * keeping the padding that keeps nodes on separate pages. Node copies that C does element by element are bulk copies;
 * the histogram, the running sums, the tree's sums and the permutation run over views made after the synchronization
 * before them (a read view of the processor's keys, an update view of its {@code rank_me} row and of its {@code
 * rank_ff}, write views of the tree node and {@code key_density} it computes, and on more than one DSM node one
 * overwrite view per digit value of the range of the other key array its keys of that value go to: ranges it writes
 * whole, which the other processors' ranges of the same value adjoin, so a page of another processor's partition is
 * neither fetched nor twinned, and only this processor's elements of it go home; on plain arrays and one node, as in C,
 * each key goes straight to its rank through an update view of the processor's span). Per run and member: one lock (the
 * id counter: the port takes it as C does but uses the team id), two barriers after generating the keys, four per digit
 * and one at the end, and the C program's pauses (for P = 4 and three digits, 21 set and 18 waited, as C).
 * Differences from C: one barrier after member 0's initialization (C initializes before creating the processes),
 * and with {@code -s} one barrier standing for {@code WAIT_FOR_END}, so that the master reads the others'
 * statistics. Timings are {@link org.viadsm.examples.runtime.SplashClock} microseconds.
 *
 * <h2>Other deviations</h2>
 * Bad values throw {@link java.lang.IllegalArgumentException} from
 * {@link org.viadsm.examples.radix.RadixApp#validate(int)} where C prints an error and exits. The port also refuses
 * what C cannot run: a team size that is not a power of 2 (C's prefix tree deadlocks, e.g. with {@code -p3}),
 * {@code -r1} (C loops forever) and a radix above {@code MAX_RADIX}. Flags are picocli options: repeating one is an
 * error where C toggles it.
 */
package org.viadsm.examples.radix;
