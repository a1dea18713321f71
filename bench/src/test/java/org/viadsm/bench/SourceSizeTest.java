package org.viadsm.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No main class over {@value #MAX_LINES} lines outside the application ports: a class past that size holds more
 * than one job and is split, rather than left to grow. The ports follow the C programs' structure and are exempt.
 */
class SourceSizeTest
{
    private static final int MAX_LINES = 500;
    private static final List<String> MODULES = List.of("via-engine", "consistency", "dsm", "examples", "bench");
    private static final Set<String> APPLICATION_PORTS = Set.of(
        "barnes", "fft", "lu", "ocean", "radix", "sor", "tsp", "water", "waternsq", "waterspatial");

    @Test
    void shouldKeepEveryMainClassOutsideTheApplicationPortsWithinTheLimit()
    {
        final Path root = Path.of("").toAbsolutePath().getParent();
        final Path applications = root.resolve("examples/src/main/java/org/viadsm/examples");
        int checked = 0;
        final StringBuilder over = new StringBuilder();
        for (final String module : MODULES)
        {
            final Path sources = root.resolve(module).resolve("src/main/java");
            assertTrue(Files.isDirectory(sources), "no sources at " + sources);
            for (final Path file : javaFiles(sources))
            {
                if (file.startsWith(applications) &&
                    APPLICATION_PORTS.contains(applications.relativize(file).getName(0).toString()))
                {
                    continue;
                }
                checked++;
                final long lines = lineCount(file);
                if (lines > MAX_LINES)
                {
                    over.append(root.relativize(file)).append(": ").append(lines).append(" lines\n");
                }
            }
        }
        assertTrue(checked > 100, "checked only " + checked + " files");
        assertEquals("", over.toString(), "main classes over " + MAX_LINES + " lines");
    }

    private static List<Path> javaFiles(final Path sources)
    {
        try (Stream<Path> files = Files.walk(sources))
        {
            return files.filter(file -> file.toString().endsWith(".java")).sorted().toList();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static long lineCount(final Path file)
    {
        try (Stream<String> lines = Files.lines(file))
        {
            return lines.count();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
