package org.viadsm.examples.fft;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.examples.runtime.AppHarness;
import org.viadsm.examples.runtime.AppHomes;
import org.viadsm.examples.runtime.TeamProbe;
import org.viadsm.examples.runtime.VerificationException;
import picocli.CommandLine.ParameterException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Expected lines are what the C program (Splash-3, built with gcc -O2 -pthread) printed for the same arguments.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FftAppTest
{
    private static final String M10_CHECK = "              INVERSE FFT TEST RESULTS\n" +
        "Checksum difference is -0.000 (1033.228, 1033.228)\n" +
        "TEST PASSED\n";
    private static final String M4_ORIGINAL = "Original data values:\n" +
        " 0.17 0.75, 0.10 0.87, 0.58 0.79, 0.69 0.37, 0.87 0.75, 0.45 0.35, 0.73 0.26, 0.39 0.78,\n" +
        " 0.85 0.58, 0.72 0.08, 0.46 0.11, 0.55 0.39, 0.57 0.96, 0.87 0.16, 0.28 0.26, 0.92 0.44\n\n\n";
    private static final String M4_FORWARD = "Data values after FFT:\n" +
        " 9.18 7.89, 0.07 0.96, -0.36 0.64, 0.67 0.92, -0.08 2.04, 0.41 0.39, -0.52 -0.57, -0.72 1.73,\n" +
        " -0.18 1.00, -1.37 -1.09, 0.26 -1.44, -0.16 -1.73, 0.92 1.18, -2.67 -0.79, -1.09 -0.14, -1.63 1.00\n\n\n";
    private static final String M4_INVERSE = "Data values after inverse FFT:\n" +
        " 0.17 0.75, 0.10 0.87, 0.58 0.79, 0.69 0.37, 0.87 0.75, 0.45 0.35, 0.73 0.26, 0.39 0.78,\n" +
        " 0.85 0.58, 0.72 0.08, 0.46 0.11, 0.55 0.39, 0.57 0.96, 0.87 0.16, 0.28 0.26, 0.92 0.44\n\n\n";

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldPrintTheChecksumsOfTheCProgram(final int members)
    {
        final String output = AppHarness.run(FftApp::new, members, "-m10", "-t");

        assertTrue(output.startsWith("\nFFT with Blocking Transpose\n   1024 Complex Doubles\n   " + members +
            " Processors\n   65536 Cache lines\n   16 Byte line size\n   4096 Bytes per page\n\n"), output);
        assertTrue(output.endsWith(M10_CHECK), output);
        assertTrue(output.matches("(?s).*\nTotal time without initialization : +\\d+\n.*"), output);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldPrintTheDataValuesOfTheCProgram(final int members)
    {
        final String forward = AppHarness.run(FftApp::new, members, "-m4", "-o");
        final String roundTrip = AppHarness.run(FftApp::new, members, "-m4", "-o", "-t");

        assertTrue(forward.contains(M4_ORIGINAL), forward);
        assertTrue(forward.contains(M4_FORWARD), forward);
        assertTrue(roundTrip.contains(M4_INVERSE), roundTrip);
        assertTrue(roundTrip.endsWith("Checksum difference is 0.000 (17.070, 17.070)\nTEST PASSED\n"), roundTrip);
    }

    @Test
    void shouldPrintTheLinesProcessZeroPrintsInTheCProgram()
    {
        final String output = AppHarness.run(FftApp::new, 1, "-m8");

        final String shape = output.replaceAll("Step (\\d): +\\d+", "Step $1: T");
        assertTrue(shape.contains("iter_num = 16\nTranspose: iter_num = 0\nStep 1: T\nFFt1DOnce: iter_num = 32\n" +
            "Step 2: T\nTranspose: iter_num = 0\nStep 3: T\nStep 4: T\nTranspose: iter_num = 0\nStep 5: T\n"), shape);
        assertEquals(1, shape.split("FFt1DOnce", -1).length - 1);
    }

    @Test
    void shouldReproduceTheFailureOfTheCProgramWhenTheTransposeBlocksAreEmpty()
    {
        // -l3 halves 100 cache lines to 50: with one processor each transpose block is 32 / 2 / 2 = 0 rows, so
        // the C program transposes nothing and its self-check fails; with two it works.
        final AppHarness.Result one = AppHarness.attempt(FftApp::new, 1, t -> t, "-m12", "-l3", "-n100", "-t");
        final String two = AppHarness.run(FftApp::new, 2, "-m12", "-l3", "-n100", "-t");

        assertTrue(one.output().startsWith("WARNING: Each element is a complex double (16 bytes)\n" +
            "  => Less than one element per cache line\n     Computing transpose blocking factor\n\n" +
            "FFT with Blocking Transpose\n   4096 Complex Doubles\n   1 Processors\n   100 Cache lines\n" +
            "   50 Cache lines for blocking transpose\n   8 Byte line size\n"), one.output());
        assertTrue(one.output().endsWith("Checksum difference is 884.503 (4078.979, 3194.476)\nTEST FAILED\n"),
            one.output());
        assertInstanceOf(VerificationException.class, one.failure().getCause());
        assertTrue(two.endsWith("Checksum difference is 0.000 (4078.979, 4078.979)\nTEST PASSED\n"), two);
    }

    @Test
    void shouldDetectACorruptedResult()
    {
        final TeamProbe probe = new TeamProbe().onOutput("TIMING INFORMATION",
            arrays -> ((DoubleArray)arrays.get("fft.x")).set(0, ((DoubleArray)arrays.get("fft.x")).get(0) + 1.0));

        final AppHarness.Result result = AppHarness.attempt(FftApp::new, 2, probe::wrap, "-m10", "-t");

        assertTrue(result.output().endsWith("Checksum difference is -1.000 (1033.228, 1034.228)\nTEST FAILED\n"),
            result.output());
        final VerificationException failure =
            assertInstanceOf(VerificationException.class, result.failure().getCause());
        assertTrue(failure.getMessage().contains("1033.2279630653059 before, 1034.2279630653059 after"),
            failure.getMessage());
    }

    @Test
    void shouldSynchronizeAsOftenAsTheCProgram()
    {
        final TeamProbe probe = new TeamProbe();

        final AppHarness.Result result = AppHarness.attempt(FftApp::new, 2, probe::wrap, "-m10", "-t");

        assertNull(result.failure());
        for (int id = 0; id < 2; id++)
        {
            // One start barrier, two in SlaveStart, five per FFT1D (forward and inverse).
            assertEquals(13, probe.barriers(id));
            assertEquals(1, probe.locks(id));
            assertEquals(0, probe.setPauses(id));
        }
    }

    @Test
    void shouldPrintEveryProcessorsStatisticsWithS()
    {
        final TeamProbe probe = new TeamProbe();

        final AppHarness.Result result = AppHarness.attempt(FftApp::new, 4, probe::wrap, "-m8", "-s");

        assertNull(result.failure());
        assertTrue(result.output().matches("(?s).*\n    3 +\\d+ +\\d+ +[0-9.]+\n  Avg .*\n  Max .*\n  Min .*"),
            result.output());
        assertEquals(1 + 2 + 5 + 1, probe.barriers(0));
    }

    @Test
    void shouldRejectAnOddM()
    {
        final String message = AppHarness.rejection(FftApp::new, 1, "-m9");
        assertTrue(message.contains("-m 9"), message);
    }

    @Test
    void shouldRejectATeamSizeThatIsNotAPowerOfTwo()
    {
        final String message = AppHarness.rejection(FftApp::new, 3, "-m10");
        assertTrue(message.contains("power of 2"), message);
    }

    @Test
    void shouldRejectAPThatDiffersFromTheTeamSize()
    {
        final String message = AppHarness.rejection(FftApp::new, 4, "-p2");
        assertTrue(message.contains("-p 2"), message);
        AppHarness.parse(FftApp::new, "-p4").validate(4);
        final String zero = AppHarness.rejection(FftApp::new, 1, "-p0");
        assertTrue(zero.contains("-p 0: P must be >= 1"), zero);
    }

    @Test
    void shouldRejectAMatrixSmallerThanTheTeam()
    {
        final String message = AppHarness.rejection(FftApp::new, 4, "-m2");
        assertTrue(message.contains("2**(M/2) must be >= P"), message);
    }

    @Test
    void shouldRejectTooFewCacheLines()
    {
        final String message = AppHarness.rejection(FftApp::new, 1, "-n0");
        assertTrue(message.contains("-n 0"), message);
        final String blocking = AppHarness.rejection(FftApp::new, 1, "-n1", "-l0");
        assertTrue(blocking.contains("-n 1 with -l 0"), blocking);
    }

    @Test
    void shouldRejectANonNumericM()
    {
        final ParameterException ex =
            assertThrows(ParameterException.class, () -> AppHarness.parse(FftApp::new, "-m", "ten"));
        assertTrue(ex.getMessage().contains("-m"), ex.getMessage());
    }

    @Test
    void checkPrintsFailedAndThrowsWhenTheChecksumsDiffer()
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

        FftApp.check(out, 10.0, 10.0005);
        assertThrows(VerificationException.class, () -> FftApp.check(out, 10.0, 10.002));

        assertEquals("              INVERSE FFT TEST RESULTS\nChecksum difference is -0.001 (10.000, 10.001)\n" +
            "TEST PASSED\n              INVERSE FFT TEST RESULTS\nChecksum difference is -0.002 (10.000, 10.002)\n" +
            "TEST FAILED\n", bytes.toString(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldKeepEachProcessorsRowsAtThatProcessor(final int nodes)
    {
        AppHomes.check(FftApp::new, nodes, (members, homes) ->
        {
            final FftLayout layout = new FftLayout(12, members, 65536, 4);
            final int rowLength = 2 * (layout.rootN + layout.padLength);
            final int partition = layout.rowsPerProc * rowLength;
            for (int p = 0; p < members; p++)
            {
                for (final String name : new String[] {"fft.x", "fft.trans", "fft.umain2"})
                {
                    homes.expect(name, p * partition, (p + 1) * partition, p);
                }
            }
            homes.expectAll("fft.umain", 0);
            homes.expectAll("fft.global", 0);
        }, "-m12");
    }
}
