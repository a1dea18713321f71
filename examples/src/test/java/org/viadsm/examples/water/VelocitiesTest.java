package org.viadsm.examples.water;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VelocitiesTest
{
    @TempDir
    Path dir;

    @Test
    void shouldGenerateTheSameNumbersEveryTime()
    {
        assertArrayEquals(new double[] {0.060539098309306164, -0.9289453727513031, -0.06976713587865649,
            1.8064347248437582}, Velocities.generate(4));
    }

    @Test
    void shouldGenerateAPrefixOfALongerRun()
    {
        final double[] longer = Velocities.generate(Velocities.count(64));
        assertArrayEquals(Velocities.generate(Velocities.count(8)), Arrays.copyOf(longer, Velocities.count(8)));
        for (final double value : longer)
        {
            assertTrue(Math.abs(value) <= Velocities.LIMIT, "value " + value);
        }
    }

    @Test
    void shouldFormatAsRandomInDoes()
    {
        // 18 significant digits of the exact binary value (random.in itself was written less exactly).
        assertEquals("0.141882295971771488e+00", Velocities.fortran(0.14188229597177149));
        assertEquals("-0.350000000000000000e+01", Velocities.fortran(-3.5));
        assertEquals("0.625000000000000000e-01", Velocities.fortran(0.0625));
        assertEquals("0.100000000000000008e-04", Velocities.fortran(1e-5));
        assertEquals("0.000000000000000000e+00", Velocities.fortran(0.0));
    }

    @Test
    void shouldReadBackExactlyWhatItWrites() throws Exception
    {
        final double[] values = Velocities.generate(Velocities.count(27));
        final Path file = dir.resolve("random.in");
        Velocities.write(file, values);
        assertArrayEquals(values, Velocities.read(file, values.length));
        final List<String> lines = Files.readAllLines(file);
        assertEquals(1 + 27 * 3, lines.size());
        assertEquals("  0.605390983093061635e-01", lines.get(0));
        assertEquals(80, lines.get(1).length());
    }

    @Test
    void readNamesTheFileWhenItHoldsTooFewNumbers() throws Exception
    {
        final Path file = Files.writeString(dir.resolve("short.in"), "1.0 2.0\n3.0\n");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> Velocities.read(file, 10));
        assertEquals("velocities file " + file + ": expected a number for number 4 of 10, " +
            "found the end of the input after line 2", ex.getMessage());
    }
}
