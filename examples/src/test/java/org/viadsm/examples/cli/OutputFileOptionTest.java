package org.viadsm.examples.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link OutputFileOption}: every file the writer could write is accepted, and the check leaves nothing behind.
 */
class OutputFileOptionTest
{
    private final CommandLine commandLine = new CommandLine(CommandSpec.create());

    @Test
    void shouldAcceptAFileInDirectoriesThatDoNotExistYetWithoutCreatingThem(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("a").resolve("b").resolve("stats.json");

        assertEquals(file, OutputFileOption.check(commandLine, "--json", file));
        assertFalse(Files.exists(dir.resolve("a")));

        OutputFileOption.createDirectories(file);
        assertTrue(Files.isDirectory(file.getParent()));
    }

    @Test
    void shouldAcceptANewOrExistingFileAndLeaveTheDirectoryAsItWas(@TempDir final Path dir) throws Exception
    {
        final Path existing = Files.writeString(dir.resolve("old.json"), "{}");

        assertEquals(existing, OutputFileOption.check(commandLine, "--json", existing));
        OutputFileOption.check(commandLine, "--json", dir.resolve("new.json"));
        assertEquals("{}", Files.readString(existing));
        try (Stream<Path> entries = Files.list(dir))
        {
            assertEquals(1, entries.count());
        }
    }

    @Test
    void shouldAcceptARelativePath()
    {
        final Path relative = Path.of("target", "output-file-option-test.json");

        assertEquals(relative, OutputFileOption.check(commandLine, "--json", relative));
        assertFalse(Files.exists(relative));
    }

    @Test
    void shouldNameTheOptionTheFileAndTheProblem(@TempDir final Path dir) throws Exception
    {
        final Path file = Files.writeString(dir.resolve("file"), "");
        final Path under = file.resolve("x").resolve("stats.json");

        final CommandLine.ParameterException ex = assertThrows(CommandLine.ParameterException.class,
            () -> OutputFileOption.check(commandLine, "--stats-json", under));
        assertEquals("cannot write --stats-json " + under + ": " + file + " is not a directory", ex.getMessage());
    }
}
