package org.viadsm.examples.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import picocli.CommandLine;

/**
 * The check of an option naming a file a command writes when it is done ({@code --stats-json}, {@code --json},
 * {@code --plot}): made before anything runs, so that a path the command could not write is a usage error at once
 * rather than a failure after a long run. The check creates nothing: the file and its missing directories are the
 * writer's to create, when the command is done.
 */
public final class OutputFileOption
{
    private OutputFileOption()
    {
    }

    /**
     * Refuses a file the command could not write: a directory, a path under a file, a directory that cannot be
     * created or where no file can be created. A file that does not exist yet, in a directory that does not either,
     * is accepted where the writer could create them.
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

    /**
     * Creates the missing directories of a file the command is about to write, which {@link #check} accepted.
     *
     * @param file the file.
     * @throws IOException if a directory could not be created.
     */
    public static void createDirectories(final Path file) throws IOException
    {
        final Path parent = file.toAbsolutePath().getParent();
        if (null != parent)
        {
            Files.createDirectories(parent);
        }
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
        if (!existing.equals(dir))
        {
            // the writer creates the missing directories; the check leaves none behind for a run that then fails
            return Files.isWritable(existing) && Files.isExecutable(existing) ? null :
                "cannot create the directory " + dir;
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
