package org.viadsm.examples.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.viadsm.via.internal.AgronaAccess;
import org.viadsm.via.internal.JavaProcess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The startup cache: recorded from a training run and started from; stale (older than its jar) or damaged (not
 * the length recorded) caches are not ready; a failed training leaves no cache and says why; and a JVM given a
 * damaged cache with the cache options starts without it and without a word.
 */
@Timeout(300)
class AotCacheTest
{
    private static final String GREETER = String.join("\n",
        "public final class Greeter {",
        "    public static void main(final String[] args) {",
        "        if (args.length > 0) { System.exit(Integer.parseInt(args[0])); }",
        "        System.out.println(\"hello \" + java.util.List.of(1, 2, 3).stream().mapToInt(i -> i).sum());",
        "    }",
        "}", "");

    @Test
    void shouldRecordACacheThatAJvmStartsFromAndRefuseItWhenStaleOrDamaged(@TempDir final Path dir)
        throws Exception
    {
        final Path jar = greeterJar(dir);
        final Path cache = dir.resolve("greeter.aot");
        assertTrue(AotCache.create(jar.toString(), "Greeter", List.of(), cache), () -> read(dir, "greeter.aot.log"));
        assertTrue(AotCache.isReady(cache, jar));
        assertFalse(Files.exists(dir.resolve("greeter.aot.failed")));
        try (Stream<Path> files = Files.list(dir))
        {
            assertEquals(List.of(), files.map(file -> file.getFileName().toString())
                .filter(name -> name.contains(".tmp")).toList(), "no recording left behind");
        }

        final Result strict = java(jar, List.of("-XX:AOTMode=on", "-XX:AOTCache=" + cache));
        assertEquals(0, strict.code, strict.err);
        assertEquals("hello 6", strict.out.strip());

        final FileTime built = Files.getLastModifiedTime(jar);
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(cache).toMillis() + 1000));
        assertFalse(AotCache.isReady(cache, jar), "a jar newer than its cache makes it stale");
        Files.setLastModifiedTime(jar, built);
        assertTrue(AotCache.isReady(cache, jar));
        try (OutputStream out = Files.newOutputStream(cache, java.nio.file.StandardOpenOption.APPEND))
        {
            out.write(0);
        }
        assertFalse(AotCache.isReady(cache, jar), "a cache of another length is damaged");
    }

    @Test
    void shouldLeaveNoCacheAndSayWhyWhenTheTrainingFails(@TempDir final Path dir) throws Exception
    {
        final Path jar = greeterJar(dir);
        final Path cache = dir.resolve("greeter.aot");
        assertFalse(AotCache.create(jar.toString(), "Greeter", List.of("3"), cache));
        assertFalse(Files.exists(cache));
        assertFalse(AotCache.isReady(cache, jar));
        final String why = read(dir, "greeter.aot.failed");
        assertTrue(why.startsWith("the training run exited with 3 (see "), why);
    }

    @Test
    void shouldStartWithoutAWordFromADamagedCache(@TempDir final Path dir) throws Exception
    {
        final Path jar = greeterJar(dir);
        final Path damaged = dir.resolve("damaged.aot");
        Files.write(damaged, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        final Result result = java(jar, AotCache.options(damaged));
        assertEquals(0, result.code, result.err);
        assertEquals("hello 6", result.out.strip());
        assertEquals("", result.err);
    }

    @Test
    void shouldGiveChildrenTheCacheThisJvmStartedFrom(@TempDir final Path dir) throws Exception
    {
        final Path cache = Files.writeString(dir.resolve("viadsm.aot"), "x");
        final String previous = System.getProperty(AotCache.PROPERTY);
        try
        {
            System.clearProperty(AotCache.PROPERTY);
            assertEquals(NodeSettings.JVM_OPTIONS, NodeSettings.jvmOptions(null));
            System.setProperty(AotCache.PROPERTY, cache.toString());
            final List<String> expected = new ArrayList<>(NodeSettings.JVM_OPTIONS);
            expected.addAll(AotCache.options(cache));
            assertEquals(expected, NodeSettings.jvmOptions(" "));
            expected.addAll(List.of("-XX:+UseParallelGC", "-Dviadsm.x=1"));
            assertEquals(expected, NodeSettings.jvmOptions(" -XX:+UseParallelGC \t -Dviadsm.x=1\n"));
            System.setProperty(AotCache.PROPERTY, dir.resolve("missing.aot").toString());
            assertEquals(NodeSettings.JVM_OPTIONS, NodeSettings.jvmOptions(""));
        }
        finally
        {
            if (null == previous)
            {
                System.clearProperty(AotCache.PROPERTY);
            }
            else
            {
                System.setProperty(AotCache.PROPERTY, previous);
            }
        }
    }

    @Test
    void shouldRunTheTrainingWorkloadAndVerifyIt()
    {
        assertEquals(0, ViadsmCommand.execute("aot-training"));
    }

    private static Path greeterJar(final Path dir) throws IOException
    {
        final Path sources = Files.createDirectories(dir.resolve("src"));
        Files.writeString(sources.resolve("Greeter.java"), GREETER, StandardCharsets.UTF_8);
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertEquals(0, javac.run(null, null, null, "-d", sources.toString(),
            sources.resolve("Greeter.java").toString()));
        final Path jar = dir.resolve("greeter.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)))
        {
            out.putNextEntry(new JarEntry("Greeter.class"));
            out.write(Files.readAllBytes(sources.resolve("Greeter.class")));
            out.closeEntry();
        }
        Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        return jar;
    }

    private static Result java(final Path jar, final List<String> options) throws Exception
    {
        // As every viadsm JVM: a cache recorded with an --add-exports serves only JVMs that have it too.
        final List<String> command = new ArrayList<>(List.of(JavaProcess.javaBinary(), AgronaAccess.ADD_EXPORTS,
            JavaProcess.NATIVE_ACCESS));
        command.addAll(options);
        command.addAll(List.of("-cp", jar.toString(), "Greeter"));
        final Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        final byte[] out = process.getInputStream().readAllBytes();
        final byte[] err = process.getErrorStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8),
            new String(err, StandardCharsets.UTF_8));
    }

    private static String read(final Path dir, final String name)
    {
        try
        {
            return Files.readString(dir.resolve(name), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            return "(no " + name + ": " + ex + ")";
        }
    }

    private record Result(int code, String out, String err)
    {
    }
}
