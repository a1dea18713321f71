package org.viadsm.examples.tsp;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

import org.viadsm.dsm.Placement;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.examples.runtime.App;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.Team;
import org.viadsm.examples.runtime.VerificationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Branch-and-bound travelling salesman, TreadMarks' TSP. See the package documentation.
 */
@Command(name = "tsp", description = "Branch-and-bound travelling salesman (TreadMarks' TSP) over a shared, " +
    "lock-protected priority queue of partial tours.")
public final class TspApp extends App
{
    /** Largest city count: visited sets are 64-bit masks and the search is exponential long before. */
    static final int MAX_CITIES = 32;
    /** Largest tour pool, in ints. */
    private static final long MAX_POOL_INTS = 1L << 26;

    /** Shortest tour lengths recorded for instances too large for {@link HeldKarp}: {cities, seed, length}. */
    private static final long[][] RECORDED = {
        {19, 1, 299},
    };

    @Option(names = "-n", paramLabel = "CITIES", description = "Number of cities (default: ${DEFAULT-VALUE}).")
    private int cities = 19;

    @Option(names = "-s", paramLabel = "SEED", description = "srand48 seed of the distances (default: " +
        "${DEFAULT-VALUE}).")
    private long seed = 1;

    @Option(names = "-d", paramLabel = "DEPTH", description = "Partial tours of fewer cities are extended through " +
        "the shared queue, longer ones solved by private depth-first search (default: ${DEFAULT-VALUE}).")
    private int depth = 4;

    /**
     * Creates an application instance; picocli sets its options.
     */
    public TspApp()
    {
    }

    /**
     * Checks the city count and depth threshold.
     *
     * @param teamSize number of members that will run.
     * @throws IllegalArgumentException naming the option and value.
     */
    @Override
    public void validate(final int teamSize)
    {
        if (cities < 3 || cities > MAX_CITIES)
        {
            throw new IllegalArgumentException("-n must be in [3, " + MAX_CITIES + "]: " + cities);
        }
        if (depth < 1 || depth > cities - 1)
        {
            throw new IllegalArgumentException("-d must be in [1, " + (cities - 1) + "] for " + cities +
                " cities: " + depth);
        }
        final long capacity = TspLayout.capacity(cities, depth);
        if (capacity * TspLayout.tourStride(cities) > MAX_POOL_INTS)
        {
            throw new IllegalArgumentException("-d " + depth + " needs a pool of " + capacity + " tours for " +
                cities + " cities; use a smaller -d");
        }
    }

    /**
     * Runs the search as one member; member 0 generates the distances, prints the shortest tour and checks it.
     *
     * @param team this member's view of the team.
     * @throws VerificationException if the tour is not a valid tour of the printed length, or its length differs
     *                               from the exact solver's (up to 16 cities) or the recorded one.
     */
    @Override
    public void run(final Team team)
    {
        validate(team.size());
        final int n = cities;
        final int capacity = (int)TspLayout.capacity(n, depth);
        // One central queue, tour pool and best tour that every member takes from and adds to under locks, as in
        // the TreadMarks program, and distances the master generates: all at the master.
        final Placement master = Placement.onNode(0);
        final IntArray distances = team.ints("tsp.distances", n * n, master);
        final IntArray tours = team.ints("tsp.tours", capacity * TspLayout.tourStride(n), master);
        final IntArray queueArray = team.ints("tsp.queue", TspLayout.QUEUE_HEADER_LENGTH + 2 * capacity, master);
        final IntArray best = team.ints("tsp.best", 1 + n, master);
        final TourQueue queue = new TourQueue(queueArray, tours, n, capacity);
        if (0 == team.id())
        {
            Cities.generate(distances, n, seed);
            TspSolver.seed(Cities.copyOf(distances, n), queue, best);
        }
        team.barrier();

        final Cities map = Cities.copyOf(distances, n);
        team.beginTimedPhase();
        final long startNs = System.nanoTime();
        new TspSolver(team, map, depth, queue, best).run();
        team.barrier();
        final long elapsedNs = System.nanoTime() - startNs;
        team.endTimedPhase();
        if (0 == team.id())
        {
            final int[] path = new int[n];
            team.lock(TspLayout.BEST_LOCK);
            final int length = best.get(TspLayout.BEST_LENGTH_OFFSET);
            best.get(TspLayout.BEST_PATH_OFFSET, path, 0, n);
            team.unlock(TspLayout.BEST_LOCK);
            print(team.out(), team.size(), length, path, elapsedNs);
            TspCheck.verify(map, length, path, expectedLength(map));
        }
    }

    private void print(final PrintStream out, final int members, final int length, final int[] path,
        final long elapsedNs)
    {
        out.print(CFormat.format("TSP: %ld cities, seed %ld, distances 1..%ld; %ld member%s\n", cities, seed,
            Cities.MAX_DISTANCE, members, 1 == members ? "" : "s"));
        out.print(CFormat.format("Shortest tour length: %ld\n", length));
        final StringBuilder line = new StringBuilder("Shortest tour:");
        for (final int city : path)
        {
            line.append(CFormat.format(" %ld", city));
        }
        line.append(CFormat.format(" %ld\n", path[0]));
        out.print(line);
        out.print(CFormat.format("Search time: %ld ms\n", TimeUnit.NANOSECONDS.toMillis(elapsedNs)));
    }

    /**
     * The exact solver's length up to {@link HeldKarp#MAX_CITIES} cities, else a recorded one, else -1.
     */
    private long expectedLength(final Cities map)
    {
        if (cities <= HeldKarp.MAX_CITIES)
        {
            return HeldKarp.shortestTour(map);
        }
        for (final long[] row : RECORDED)
        {
            if (row[0] == cities && row[1] == seed)
            {
                return row[2];
            }
        }
        return -1;
    }
}
