package org.viadsm.examples.barnes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BarnesParametersTest
{
    @TempDir
    Path dir;

    @Test
    void shouldReadTheTwelveLinesInTheCsOrder() throws IOException
    {
        final BarnesParameters params = read("\n1000\n42\nsnap.out\n0.01\n0.1\n0.5\n3.0\n4.0\n0.2\n0.5\n4\n");
        assertEquals(1000, params.nbody);
        assertEquals(42, params.seed);
        assertEquals("snap.out", params.outfile);
        assertEquals(0.01, params.dtime);
        assertEquals(0.1, params.eps);
        assertEquals(0.5, params.tol);
        assertEquals(3.0, params.fcells);
        assertEquals(4.0, params.fleaves);
        assertEquals(0.2, params.tstop);
        assertEquals(0.5, params.dtout);
        assertEquals(4, params.nproc);
    }

    @Test
    void shouldTakeTheCDefaultsForBlankAndMissingLines() throws IOException
    {
        final BarnesParameters params = read("\n\n7\n\n  \n0.07\n");
        assertEquals(16384, params.nbody);
        assertEquals(7, params.seed);
        assertEquals(0.025, params.dtime);
        assertEquals(0.07, params.eps);
        assertEquals(1.0, params.tol);
        assertEquals(2.0, params.fcells);
        assertEquals(0.5, params.fleaves);
        assertEquals(0.075, params.tstop);
        assertEquals(0.25, params.dtout);
        assertEquals(1, params.nproc);
    }

    @Test
    void shouldBuildInTheSplashInputN16384()
    {
        final BarnesParameters params = BarnesParameters.builtIn();
        assertEquals(16384, params.nbody);
        assertEquals(123, params.seed);
        assertEquals(5.0, params.fleaves);
        assertEquals(0.075, params.tstop);
    }

    @Test
    void shouldNameTheFileAndLineOfAMalformedNumber() throws IOException
    {
        final Path file = write("\n512\n123\n\n0.025\nabc\n");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> BarnesParameters.read(file.toString()));
        assertEquals(file + ":6: eps must be a number: 'abc'", ex.getMessage());
    }

    @Test
    void shouldNameTheFileAndLineOfANonIntegerBodyCount() throws IOException
    {
        final Path file = write("\n1.5e3\n");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> BarnesParameters.read(file.toString()));
        assertEquals(file + ":2: nbody must be an integer: '1.5e3'", ex.getMessage());
    }

    @Test
    void shouldRejectAZeroTimeStep() throws IOException
    {
        final Path file = write("\n512\n123\n\n0\n");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> BarnesParameters.read(file.toString()));
        assertEquals(file + ":5: dtime must be a positive number: '0'", ex.getMessage());
    }

    @Test
    void shouldRejectAZeroProcessorCount() throws IOException
    {
        final Path file = write("\n512\n123\n\n\n\n\n\n\n\n\n0\n");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> BarnesParameters.read(file.toString()));
        assertEquals(file + ":12: NPROC must be an integer in [1, 2147483647]: '0'", ex.getMessage());
    }

    @Test
    void shouldRejectAParticleInputFile() throws IOException
    {
        final Path file = write("bodies.dat\n512\n");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> BarnesParameters.read(file.toString()));
        assertTrue(ex.getMessage().startsWith(file + ":1: particle input files are not supported"), ex.getMessage());
    }

    @Test
    void shouldParseLinesFromAnySource()
    {
        final BarnesParameters params = BarnesParameters.parse(List.of("", "64"), "test");
        assertEquals(64, params.nbody);
        assertEquals("test", params.source);
    }

    private BarnesParameters read(final String text) throws IOException
    {
        return BarnesParameters.read(write(text).toString());
    }

    private Path write(final String text) throws IOException
    {
        final Path file = dir.resolve("input");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }
}
