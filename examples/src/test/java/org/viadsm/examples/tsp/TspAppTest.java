package org.viadsm.examples.tsp;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.examples.runtime.AppHarness;
import org.viadsm.examples.runtime.AppHomes;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class TspAppTest
{
    @ParameterizedTest
    @CsvSource({"10, 1, 1", "11, 7, 2", "12, 3, 3", "12, 42, 1"})
    void shouldFindTheExactSolversLengthAndTheSameTourOnEveryMemberCount(
        final int n,
        final long seed,
        final int depth)
    {
        final Cities cities = cities(n, seed);
        final int exact = HeldKarp.shortestTour(cities);
        final String[] args = {"-n", String.valueOf(n), "-s", String.valueOf(seed), "-d", String.valueOf(depth)};
        final List<String> one = result(AppHarness.run(TspApp::new, 1, args));
        assertEquals("Shortest tour length: " + exact, one.get(1));
        final int[] path = parsePath(one.get(2), n);
        assertEquals(exact, cities.tourLength(path));
        for (final int members : new int[] {2, 4})
        {
            final List<String> many = result(AppHarness.run(TspApp::new, members, args));
            assertEquals(one.subList(1, 3), many.subList(1, 3));
            assertEquals("TSP: " + n + " cities, seed " + seed + ", distances 1..100; " + members + " members",
                many.get(0));
        }
    }

    @Test
    void shouldPrintTheLexicographicallySmallestShortestTour()
    {
        final List<String> lines = result(AppHarness.run(TspApp::new, 2, "-n", "12", "-s", "3"));
        assertEquals(List.of(
            "TSP: 12 cities, seed 3, distances 1..100; 2 members",
            "Shortest tour length: 185",
            "Shortest tour: 0 8 3 10 6 9 4 5 7 1 2 11 0"), lines.subList(0, 3));
        assertTrue(lines.get(3).matches("Search time: \\d+ ms"), lines.get(3));
    }

    @Test
    @Tag("slow")
    void shouldFindTheRecordedLengthOfTheDefaultInstance()
    {
        final List<String> lines = result(AppHarness.run(TspApp::new, 2));
        assertEquals("Shortest tour length: 299", lines.get(1));
    }

    @Test
    void shouldRejectBadCityCountsAndDepths()
    {
        assertEquals("-n must be in [3, 32]: 2", invalid("-n", "2"));
        assertEquals("-n must be in [3, 32]: 33", invalid("-n", "33"));
        assertEquals("-d must be in [1, 9] for 10 cities: 0", invalid("-n", "10", "-d", "0"));
        assertEquals("-d must be in [1, 9] for 10 cities: 10", invalid("-n", "10", "-d", "10"));
        assertTrue(invalid("-n", "32", "-d", "12").startsWith("-d 12 needs a pool of "));
    }

    @Test
    void shouldBeInTheCatalogWithTheDefaultInstance()
    {
        final AppCatalog.Entry entry = AppCatalog.find("tsp");
        assertEquals("-n19 -s1", entry.defaultArgs());
        assertInstanceOf(TspApp.class, entry.newInstance());
    }

    private static String invalid(final String... args)
    {
        final TspApp app = new TspApp();
        new CommandLine(app).parseArgs(args);
        return assertThrows(IllegalArgumentException.class, () -> app.validate(1)).getMessage();
    }

    static Cities cities(final int n, final long seed)
    {
        final IntArray shared = IntArray.allocate(n * n);
        Cities.generate(shared, n, seed);
        return Cities.copyOf(shared, n);
    }

    private static List<String> result(final String output)
    {
        return AppHarness.lines(output);
    }

    private static int[] parsePath(final String line, final int n)
    {
        final String[] words = line.substring("Shortest tour: ".length()).split(" ");
        assertEquals(n + 1, words.length, line);
        assertEquals("0", words[n], line);
        final int[] path = new int[n];
        for (int i = 0; i < n; i++)
        {
            path[i] = Integer.parseInt(words[i]);
        }
        return path;
    }

    @ParameterizedTest
    @CsvSource({"2", "4"})
    void shouldKeepTheCentralQueueAndToursAtTheMaster(final int members)
    {
        AppHomes.check(TspApp::new, members, (nodes, homes) ->
        {
            for (final String name : new String[] {"tsp.distances", "tsp.tours", "tsp.queue", "tsp.best"})
            {
                homes.expectAll(name, 0);
            }
        }, "-n10");
    }
}
