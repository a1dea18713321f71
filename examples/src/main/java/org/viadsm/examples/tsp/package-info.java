/**
 * TSP, the branch-and-bound travelling salesman that TreadMarks used as a benchmark (Keleher et al., USENIX 1994;
 * Amza et al., IEEE Computer 1996). There is no SPLASH source: the program follows the published description.
 *
 * <h2>Running</h2>
 * {@code viadsm run tsp [-n CITIES] [-s SEED] [-d DEPTH]}, on any number of members.
 * <ul>
 *   <li>{@code -n}: cities, 3 to 32 (default 19: a few seconds on one member).</li>
 *   <li>{@code -s}: the {@code srand48} seed of the distances (default 1). For i &lt; j in row-major order,
 *   d(i, j) = d(j, i) = 1 + (int)(100 * drand48()).</li>
 *   <li>{@code -d}: partial tours of fewer than DEPTH cities (counting the start, city 0) are extended one city at
 *   a time through the shared queue; longer ones are completed by one member's private depth-first search
 *   (default 4; 1 to n-1).</li>
 * </ul>
 *
 * <h2>Algorithm and shared data</h2>
 * As in TreadMarks: a shared pool of partial tours with a priority queue (least lower bound first) and a stack of
 * free pool entries, all under one lock, and the best tour under another; the best length is also read without the
 * lock as a pruning bound. Member 0 generates the distances, starts the best tour with the nearest-neighbour tour
 * and queues the tour [0]; after a barrier every member takes tours until the queue is empty and no member holds
 * one, then a final barrier. Each member copies the read-only distances into private memory. Layout:
 * {@code TspLayout}. The bound of a partial tour is its length plus the shortest edge out of its last city and out
 * of each city not yet visited.
 *
 * <h2>Output</h2>
 * Member 0 prints the instance, the shortest tour length, the tour (from city 0 back to it) and the search time.
 * Ties between shortest tours are broken by the lexicographically smaller path, so everything but the time is the
 * same for every member count.
 *
 * <h2>Self-check</h2>
 * The tour must visit every city once from city 0 and measure the printed length; up to 16 cities the length must
 * equal that of an exact sequential solver (Held-Karp) run in the same process, and for the default instance
 * (19 cities, seed 1) the recorded 299. Larger instances without a record are checked for validity only. A failure
 * throws {@link org.viadsm.examples.runtime.VerificationException}.
 */
package org.viadsm.examples.tsp;
