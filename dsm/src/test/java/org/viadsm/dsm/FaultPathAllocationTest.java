package org.viadsm.dsm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.viadsm.via.internal.JavaProcess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fault and release paths allocate nothing: {@link FaultPathAllocation} counts 0 bytes allocated by the
 * faulting thread over 10 000 read faults, write faults, releases and lock acquires, after as many to warm up.
 * <p>
 * It runs in a JVM of its own with C1 only ({@code -XX:TieredStopAtLevel=1}), which makes the count exact and the
 * test deterministic. C1 does no escape analysis, so every {@code new} the paths executed would count, none hidden
 * by C2's scalar replacement. And a thread that asks for a C2 compilation first resolves every string constant of
 * the method's class on its own account (HotSpot's {@code CompileBroker::compile_method}): with C2 such requests,
 * whenever the compilation policy makes them, left a few hundred bytes of {@code String}s over 10 000 read faults
 * (0.04–0.2 B per fault), allocated at method entries and loop back-edges of code that allocates nothing, once per
 * class.
 */
@Timeout(180)
class FaultPathAllocationTest
{
    @Test
    void shouldAllocateNothingOnReadFaultsWriteFaultsReleasesAndLockAcquires(@TempDir final Path dir)
        throws IOException, InterruptedException
    {
        final Path out = dir.resolve("out.txt");
        final Path err = dir.resolve("err.txt");
        final Process process = new ProcessBuilder(JavaProcess.command(FaultPathAllocation.class.getName(),
            List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), List.of()))
            .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try
        {
            assertTrue(process.waitFor(150, TimeUnit.SECONDS), "the measuring JVM did not end in 150 s");
        }
        finally
        {
            process.destroyForcibly();
        }
        final String errors = Files.readString(err, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), errors);
        final long operations = (long)FaultPathAllocation.PAGES * FaultPathAllocation.ROUNDS;
        assertEquals("allocated 0 0 0 0 bytes by " + operations + " read faults, write faults, releases, lock acquires",
            Files.readString(out, StandardCharsets.UTF_8).trim(), errors);
    }
}
