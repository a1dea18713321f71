package org.viadsm.examples.runtime;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/**
 * Words for why an input file (a deck, a parameter or velocities file) could not be read, for the one line a user
 * sees: "no such file" rather than the exception's class and path again.
 */
public final class InputFiles
{
    private InputFiles()
    {
    }

    /**
     * Why a file could not be read.
     *
     * @param ex what reading it threw.
     * @return e.g. {@code no such file}, {@code permission denied}, or the system's reason.
     */
    public static String problem(final IOException ex)
    {
        if (ex instanceof NoSuchFileException)
        {
            return "no such file";
        }
        if (ex instanceof AccessDeniedException)
        {
            return "permission denied";
        }
        if (ex instanceof FileSystemException && null != ((FileSystemException)ex).getReason())
        {
            return ((FileSystemException)ex).getReason();
        }
        return String.valueOf(ex.getMessage());
    }
}
