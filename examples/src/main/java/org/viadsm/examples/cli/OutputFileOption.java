package org.viadsm.examples.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import picocli.CommandLine;

/**
 * The check of an option naming a file a command writes when it is done ({@code --stats-json}, {@code --json},
 * {@code --plot}): made before anything runs, so that a path the command could not write is a usage error at once
 * rather than a failure after a long run. The file's missing directories are created, as the writer would.
 */
public final class OutputFileOption
{
    private OutputFileOption()
    {
    }

    /**
     * Refuses a file the command could not write: a directory, a path under a file, a directory that cannot be
     * created or where no file can be created.
     *
     * @param commandLine the command given the option.
     * @param option      the option's name, e.g. {@code --stats-json}.
     * @param file        the value given, or null if the option was not given.
     * @return {@code file}.
     * @throws CommandLine.ParameterException naming the option, the file and the problem.
     */
    public static Path check(final CommandLine commandLine, final String option, final Path file)
    {
        if (null != file)
        {
            final String problem = problem(file.toAbsolutePath());
            if (null != problem)
            {
                throw new CommandLine.ParameterException(commandLine,
                    "cannot write " + option + " " + file + ": " + problem);
            }
        }
        return file;
    }

    private static String problem(final Path path)
    {
        if (Files.isDirectory(path))
        {
            return "it is a directory";
        }
        if (Files.exists(path))
        {
            return Files.isWritable(path) ? null : "it is not writable";
        }
        final Path dir = path.getParent();
        Path existing = dir;
        while (null != existing && !Files.exists(existing))
        {
            existing = existing.getParent();
        }
        if (null == existing)
        {
            return null;
        }
        if (!Files.isDirectory(existing))
        {
            return existing + " is not a directory";
        }
        try
        {
            Files.createDirectories(dir);
        }
        catch (final IOException ex)
        {
            return "cannot create the directory " + dir;
        }
        try
        {
            Files.delete(Files.createTempFile(dir, ".viadsm-", ".probe"));
        }
        catch (final IOException ex)
        {
            return "cannot create a file in " + dir;
        }
        return null;
    }
}
