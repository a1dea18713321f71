package org.viadsm.examples.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A mistyped command line ends at once with exit code 2 and one line naming the problem (then the hint to the
 * command's help), before any node starts or any output is made.
 */
@Timeout(60)
class UsageErrorsTest
{
    @RegisterExtension
    final CommandConsole console = new CommandConsole();

    @Test
    void shouldRefuseADemoOnNoNodeOrAnUnknownProvider()
    {
        assertUsageError("viadsm: --nodes must be at least 1, not 0", "demo", "--nodes", "0");
        assertUsageError("viadsm: --nodes must be at most 256 for DSM nodes, not 257", "demo", "--nodes", "257");
        assertUsageError("viadsm: unknown --provider 'nosuch'; expected jvm, shm, tcp or ucx",
            "demo", "--provider", "nosuch");
        assertUsageError("viadsm: unknown --provider 'nosuch'; expected shm or tcp", "demo", "via", "--provider",
            "nosuch");
    }

    @Test
    void shouldNameABadPlacementWithoutPointingToTheApplicationsHelp()
    {
        assertUsageError("viadsm: unknown placement 'nonsense'; expected block, cyclic, first-touch or node:<n>",
            "run", "fft", "--placement", "nonsense");
        assertUsageError("viadsm: --placement node:9 names no node of 2 (nodes are 0..1)",
            "run", "fft", "--nodes", "2", "--placement", "node:9");
        assertUsageError("viadsm: node must not be negative: -1", "run", "fft", "--placement", "node:-1");
    }

    @Test
    void shouldRefuseAStatisticsFileItCouldNotWriteBeforeRunning(@TempDir final Path dir) throws Exception
    {
        final Path file = Files.writeString(dir.resolve("file"), "");
        final Path under = file.resolve("stats.json");
        assertUsageError("viadsm: cannot write --stats-json " + under + ": " + file + " is not a directory",
            "run", "sor", "--nodes", "2", "--stats-json", under.toString(), "-m64", "-n64", "-i4", "-t");
        assertUsageError("viadsm: cannot write --stats-json " + dir + ": it is a directory",
            "run", "sor", "--stats-json", dir.toString());
        assertUsageError("viadsm: cannot write --stats-json " + under + ": " + file + " is not a directory",
            "launch", "--class", ViadsmCommand.class.getName(), "--stats-json", under.toString());
    }

    @Test
    void shouldCreateNothingWhenCheckingAStatisticsFileOfARunItThenRefuses(@TempDir final Path dir)
    {
        // a file in directories that do not exist yet is accepted (the writer creates them); the check creating them
        // would leave them behind when a later check refuses the run, as RADIX's refuses 3 nodes
        final Path missing = dir.resolve("new").resolve("stats.json");
        assertUsageError("viadsm: P must be a power of 2 in [1, 1024] (the prefix tree assumes it): team size 3 " +
            "(see 'viadsm run radix --app-help')", "run", "radix", "--nodes", "3", "--stats-json", missing.toString());
        assertFalse(Files.exists(missing.getParent()), missing.getParent().toString());
    }

    @Test
    void shouldRefuseMoreDsmNodesThanAClusterMayHaveBeforeStartingAny()
    {
        assertUsageError("viadsm: --nodes must be at most 256 for DSM nodes, not 257",
            "run", "sor", "--nodes", "257", "--provider", "shm");
        assertUsageError("viadsm: --nodes must be at most 256 for DSM nodes, not 257",
            "launch", "--nodes", "257", "--class", ViadsmCommand.class.getName());
    }

    @Test
    void shouldSayWhereLaunchLookedForAMissingClass()
    {
        assertUsageError("viadsm: class NoSuchClass not found (no -cp given: only viadsm's own classes were " +
            "searched)", "launch", "--class", "NoSuchClass");
        assertUsageError("viadsm: --provider must be shm, tcp or ucx for launch, not 'nosuch'",
            "launch", "--provider", "nosuch", "--class", "NoSuchClass");
    }

    @Test
    void shouldNameAnUnknownApplicationOrOptionOfANodeBeforeLookingForItsLauncher()
    {
        assertUsageError("viadsm: unknown application 'nosuch'; known: [fft, lu, radix, ocean, water-nsquared, " +
            "water-spatial, sor, barnes, tsp]", "node", "--app", "nosuch");
        assertUsageError("viadsm: Unknown option: '-x'", "node", "--app", "fft", "-x");
        assertUsageError("viadsm: unknown placement 'nonsense'; expected block, cyclic, first-touch or node:<n>",
            "node", "--app", "fft", "--placement", "nonsense");
    }

    @Test
    void shouldNameArgumentsTheApplicationRefusesOnThisManyNodesBeforeANodeJoins()
    {
        System.setProperty("viadsm.addresses", "shm:usage-errors-a,shm:usage-errors-b,shm:usage-errors-c");
        System.setProperty("viadsm.nodeId", "0");
        try
        {
            assertUsageError("viadsm: -b 16: block size must be in [1, n] for -n 7", "node", "--app", "lu", "-n7");
            assertUsageError("viadsm: P must be a power of 2 in [1, 1024] (the prefix tree assumes it): team size 3",
                "node", "--app", "radix");
            assertUsageError("viadsm: --placement node:3 names no node of 3 (nodes are 0..2)",
                "node", "--app", "fft", "--placement", "node:3");
        }
        finally
        {
            System.clearProperty("viadsm.addresses");
            System.clearProperty("viadsm.nodeId");
        }
    }

    private void assertUsageError(final String line, final String... args)
    {
        assertEquals(2, console.execute(args));
        final String[] lines = console.err().split("\\R");
        assertEquals(line, lines[0], String.join("\n", lines));
        assertEquals(2, lines.length, String.join("\n", lines));
        assertEquals("", console.out());
    }
}
