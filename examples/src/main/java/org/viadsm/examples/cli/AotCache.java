package org.viadsm.examples.cli;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.viadsm.via.internal.AgronaAccess;
import org.viadsm.via.internal.JavaProcess;

/**
 * The jar's ahead-of-time cache (JDK 25's AOT cache, JEPs 483 and 514): the classes a launcher and its node JVMs
 * load, already parsed and linked, recorded once per build by a training run ({@code viadsm aot-training}) so
 * that every later JVM starts from them instead of loading and linking the same code again.
 * <p>
 * The {@code viadsm} script makes the cache ({@code bench/target/viadsm.aot}) on the first {@code run},
 * {@code launch}, {@code demo} or {@code bench} after a build, starts its JVM from it, and names it in system
 * property {@value #PROPERTY}; that JVM starts its children (nodes, benchmark runs) from it too
 * ({@link #jvmOptions()}). A cache is used only while it is {@link #isReady ready}: newer than the jar and as long
 * as when it was made. A stale or damaged cache is never used, so no JVM warns about it, and a failed recording
 * leaves a {@code .failed} file naming the cause so that it is not retried until the next build.
 */
final class AotCache
{
    /** System property naming the cache a JVM was started from, for its children. */
    static final String PROPERTY = "viadsm.aot.cache";

    private static final String UNLOCK_DIAGNOSTIC = "-XX:+UnlockDiagnosticVMOptions";
    /**
     * The cache holds classes loaded and linked, not method profiles (JEP 515): profiles from the training's small
     * inputs made the JIT compile LU's and SOR's element access for the fault path and their timed phases 1.5
     * times slower, while loading and linking alone made whole runs faster and left the timed phases as they were.
     */
    private static final String NO_PROFILES = "-XX:-AOTRecordTraining";
    /**
     * A JVM started from the cache replays no training data either: with replay on (the JDK's default for a cache),
     * C2 sometimes compiled LU's kernels before this run had profiled their view calls, so those interface calls
     * were not inlined and the timed phase ran 6 to 10 times slower in that JVM (3 of 30 invocations of
     * {@code run lu --nodes 1 --warm 3}; 0 of 20 with replay off, 0 of 16 without a cache).
     */
    private static final String NO_REPLAY = "-XX:-AOTReplayTraining";
    private static final long TRAINING_TIMEOUT_NS = TimeUnit.MINUTES.toNanos(10);
    private static final long CHECK_TIMEOUT_NS = TimeUnit.MINUTES.toNanos(1);

    private AotCache()
    {
    }

    /**
     * The JVM options that start a child from this JVM's cache, if it was started from a ready one; JVM messages
     * about the cache are off, so that a cache the JVM cannot map costs nothing but the time it saves.
     *
     * @return the options, empty if there is no cache.
     */
    static List<String> jvmOptions()
    {
        final String cache = System.getProperty(PROPERTY);
        if (null == cache || cache.isEmpty() || !Files.isRegularFile(Paths.get(cache)))
        {
            return List.of();
        }
        return options(Paths.get(cache));
    }

    /**
     * The JVM options that start a JVM from a cache.
     *
     * @param cache the cache file.
     * @return the options.
     */
    static List<String> options(final Path cache)
    {
        return List.of("-XX:AOTCache=" + cache, UNLOCK_DIAGNOSTIC, NO_REPLAY, "-Xlog:aot*=off", "-Xlog:cds*=off");
    }

    /**
     * Whether a cache can be used with a jar: it is newer than the jar and as long as recorded when it was made.
     *
     * @param cache the cache file.
     * @param jar   the jar it was made for.
     * @return true if ready.
     */
    static boolean isReady(final Path cache, final Path jar)
    {
        try
        {
            final Path size = sibling(cache, ".size");
            return Files.isRegularFile(cache) && Files.isRegularFile(size) &&
                Files.getLastModifiedTime(cache).compareTo(Files.getLastModifiedTime(jar)) > 0 &&
                Long.toString(Files.size(cache)).equals(Files.readString(size, StandardCharsets.US_ASCII).strip());
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    /**
     * Records a cache: runs the training in a JVM that writes the cache at its exit, then checks that a JVM with
     * the same class path starts from it ({@code -XX:AOTMode=on}, which fails rather than run without), and only
     * then puts it in place. On failure there is no cache, and {@code cache.failed} says
     * why; the training's output is in {@code cache.log} either way.
     *
     * @param classPath    the class path, which every JVM started from the cache must have (jar files only).
     * @param mainClass    the training's main class.
     * @param trainingArgs its arguments.
     * @param cache        where the cache goes.
     * @return true if the cache is ready.
     */
    static boolean create(
        final String classPath, final String mainClass, final List<String> trainingArgs, final Path cache)
    {
        final Path log = sibling(cache, ".log");
        final Path failed = sibling(cache, ".failed");
        final Path size = sibling(cache, ".size");
        final Path recording = sibling(cache, ".tmp" + ProcessHandle.current().pid());
        try
        {
            Files.deleteIfExists(size);
            Files.deleteIfExists(failed);
            Files.deleteIfExists(log);
            Files.deleteIfExists(cache);
            final List<String> training = new ArrayList<>(NodeSettings.JVM_OPTIONS);
            training.addAll(List.of(UNLOCK_DIAGNOSTIC, NO_PROFILES, "-XX:AOTCacheOutput=" + recording));
            final int trained = run(classPath, mainClass, training, trainingArgs, log, TRAINING_TIMEOUT_NS);
            if (0 != trained || !Files.isRegularFile(recording))
            {
                return fail(failed, "the training run exited with " + trained + " (see " + log + ")");
            }
            final int checked = run(classPath, null, List.of("-XX:AOTMode=on", "-XX:AOTCache=" + recording),
                List.of("-version"), log, CHECK_TIMEOUT_NS);
            if (0 != checked)
            {
                return fail(failed, "a JVM could not start from the recorded cache (see " + log + ")");
            }
            Files.move(recording, cache, StandardCopyOption.ATOMIC_MOVE);
            Files.writeString(size, Long.toString(Files.size(cache)), StandardCharsets.US_ASCII);
            return true;
        }
        catch (final IOException ex)
        {
            return fail(failed, ex.toString());
        }
        finally
        {
            quietlyDelete(recording);
            quietlyDelete(sibling(recording, ".config"));
        }
    }

    private static int run(
        final String classPath, final String mainClass, final List<String> jvmOptions, final List<String> args,
        final Path log, final long timeoutNs) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(JavaProcess.javaBinary(), AgronaAccess.ADD_EXPORTS,
            JavaProcess.NATIVE_ACCESS));
        command.addAll(JavaProcess.forwardedProperties());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath));
        if (null != mainClass)
        {
            command.add(mainClass);
        }
        command.addAll(args);
        Files.writeString(log, String.join(" ", command) + System.lineSeparator(), StandardCharsets.UTF_8,
            StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new File(File.separatorChar == '\\' ? "NUL" : "/dev/null")))
            .start();
        try
        {
            if (!process.waitFor(timeoutNs, TimeUnit.NANOSECONDS))
            {
                process.destroyForcibly();
                return -1;
            }
            return process.exitValue();
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static boolean fail(final Path failed, final String why)
    {
        try
        {
            Files.writeString(failed, why + System.lineSeparator(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + failed, ex);
        }
        return false;
    }

    private static Path sibling(final Path file, final String suffix)
    {
        return file.resolveSibling(file.getFileName() + suffix);
    }

    private static void quietlyDelete(final Path file)
    {
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ignore)
        {
            // A leftover in the build output; the next recording replaces it.
        }
    }
}
