package org.viadsm.via.provider.ucx;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * Removes jucx's copy of its native library once it is loaded. jucx extracts {@code libjucx.so} from its jar into a
 * directory of its own under {@code java.io.tmpdir} ({@code jucx<digits>}) and deletes both only when the JVM exits
 * normally; a node killed by a signal left them behind, one directory a kill. Once the library is loaded the process
 * keeps it mapped, so the file and its directory can go at once: the copy lives only from its extraction to here.
 */
final class ExtractedLibrary
{
    /** The file name jucx extracts. */
    static final String FILE_NAME = "libjucx.so";
    /** The prefix of the directory jucx makes for it. */
    static final String DIRECTORY_PREFIX = "jucx";

    private ExtractedLibrary()
    {
    }

    /**
     * Deletes this process's extracted copy of jucx's library, found among the files it has mapped.
     *
     * @return the copy deleted, or null if there was none (the library loaded from elsewhere, or /proc unreadable).
     */
    static Path deleteLoadedCopy()
    {
        final List<String> maps;
        try
        {
            maps = Files.readAllLines(Paths.get("/proc/self/maps"));
        }
        catch (final IOException | RuntimeException ex)
        {
            return null; // no /proc: the copy goes at a normal exit, as before
        }
        final Path copy = find(maps, Paths.get(System.getProperty("java.io.tmpdir")));
        if (null == copy)
        {
            return null;
        }
        try
        {
            Files.deleteIfExists(copy);
            Files.deleteIfExists(copy.getParent());
            return copy;
        }
        catch (final IOException ex)
        {
            return null; // another file in the directory, say: left to the normal exit's deletion
        }
    }

    /**
     * The extracted copy among the mapped files of {@code /proc/<pid>/maps}' lines: a {@code libjucx.so} in a
     * {@code jucx<digits>} directory directly under {@code tmpDir}, not yet deleted. A library installed elsewhere is
     * never the copy.
     *
     * @return the copy's path, or null.
     */
    static Path find(final List<String> maps, final Path tmpDir)
    {
        final Path dir = tmpDir.toAbsolutePath().normalize();
        for (final String line : maps)
        {
            final int start = line.indexOf('/');
            if (start < 0 || !line.endsWith("/" + FILE_NAME))
            {
                continue; // anonymous, or not the library, or " (deleted)" already
            }
            final Path path = Paths.get(line.substring(start));
            final Path parent = path.getParent();
            if (dir.equals(parent.getParent()) && isExtractionDirectory(parent.getFileName().toString()))
            {
                return path;
            }
        }
        return null;
    }

    private static boolean isExtractionDirectory(final String name)
    {
        if (!name.startsWith(DIRECTORY_PREFIX) || name.length() == DIRECTORY_PREFIX.length())
        {
            return false;
        }
        for (int i = DIRECTORY_PREFIX.length(); i < name.length(); i++)
        {
            if (!Character.isDigit(name.charAt(i)))
            {
                return false;
            }
        }
        return true;
    }
}
