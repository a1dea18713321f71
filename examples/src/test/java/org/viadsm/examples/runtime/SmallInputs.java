package org.viadsm.examples.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Every application with an input small enough for tests that run them all, on any team size up to 4; BARNES also
 * without its optional locks, where its force walk reads through views.
 */
public final class SmallInputs
{
    private static final Path INPUTS = inputs();

    private SmallInputs()
    {
    }

    /**
     * The applications and their arguments.
     *
     * @return one list per application: its name, then its arguments.
     */
    public static List<List<String>> all()
    {
        return List.of(
            List.of("fft", "-m10", "-t"),
            List.of("lu", "-n64", "-b16", "-t"),
            List.of("radix", "-n4096", "-r16", "-t"),
            List.of("ocean", "-n34", "-o"),
            List.of("water-nsquared", INPUTS.resolve("water.deck").toString()),
            List.of("water-spatial", INPUTS.resolve("water.deck").toString()),
            List.of("sor", "-m64", "-n64", "-i10", "-t"),
            List.of("barnes", INPUTS.resolve("barnes.in").toString()),
            List.of("barnes", "--no-optional-locks", INPUTS.resolve("barnes.in").toString()),
            List.of("tsp", "-n10"));
    }

    private static Path inputs()
    {
        try
        {
            final Path dir = Files.createTempDirectory("viadsm-app-inputs-");
            dir.toFile().deleteOnExit();
            final Path deck = dir.resolve("water.deck");
            Files.writeString(deck, "1.5e-16 64 3 6 -1 3000 3 0 1 6.212752\n", StandardCharsets.US_ASCII);
            deck.toFile().deleteOnExit();
            final Path barnes = dir.resolve("barnes.in");
            Files.writeString(barnes, String.join("\n", "", "256", "123", "", "0.025", "0.05", "1.0", "2.0", "5.0",
                "0.05", "0.25", "1") + "\n", StandardCharsets.US_ASCII);
            barnes.toFile().deleteOnExit();
            return dir;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
