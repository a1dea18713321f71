package org.viadsm.examples.cli;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Keeps this process's standard input in a file, so that node processes can each read a copy and this process
 * can still read it too.
 */
final class StandardInput
{
    private StandardInput()
    {
    }

    /**
     * Copies standard input to a temporary file (deleted on exit) and makes {@link System#in} read that file.
     *
     * @return the file.
     */
    static Path copyToFile()
    {
        try
        {
            final Path file = Files.createTempFile("viadsm-stdin-", ".txt");
            file.toFile().deleteOnExit();
            Files.copy(System.in, file, StandardCopyOption.REPLACE_EXISTING);
            System.setIn(new FileInputStream(file.toFile()));
            return file;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot keep standard input: " + ex.getMessage(), ex);
        }
    }
}
