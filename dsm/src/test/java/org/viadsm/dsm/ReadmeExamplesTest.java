package org.viadsm.dsm;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.dsm.launch.ProcessCluster;
import org.viadsm.via.internal.JavaProcess;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every Java example of the README that is marked as one compiles (with every lint warning an error) and runs as
 * the README says: on node processes over shm, printing on node 0 exactly what the mark says. A mark is an HTML
 * comment right before the example's code block:
 * <pre>
 * &lt;!-- example: 4 nodes; node 0 prints:
 * counter 1000, squares[999] 998001
 * --&gt;
 * </pre>
 */
@Timeout(180)
class ReadmeExamplesTest
{
    private static final Pattern EXAMPLE = Pattern.compile(
        "<!-- example: (\\d+) nodes?; node 0 prints:\\n(.*?)-->\\n```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern CLASS = Pattern.compile("public\\s+(?:final\\s+)?class\\s+(\\w+)");

    static Stream<Arguments> examples() throws IOException
    {
        final Matcher matcher = EXAMPLE.matcher(Files.readString(readme(), StandardCharsets.UTF_8));
        final List<Arguments> examples = new ArrayList<>();
        while (matcher.find())
        {
            final Matcher name = CLASS.matcher(matcher.group(3));
            assertTrue(name.find(), "an example without a public class: " + matcher.group(3));
            examples.add(Arguments.of(name.group(1), Integer.parseInt(matcher.group(1)), matcher.group(2).trim(),
                matcher.group(3)));
        }
        return examples.stream();
    }

    @Test
    void shouldFindTheExamples() throws IOException
    {
        final List<Object> names = examples().map(arguments -> arguments.get()[0]).toList();
        assertTrue(names.contains("Hello") && names.contains("Daxpy"), "examples found: " + names);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void shouldCompileAndRunAsTheReadmeSays(
        final String className, final int nodes, final String expected, final String source, @TempDir final Path dir)
    {
        compile(className, source, dir);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ProcessCluster cluster = ProcessCluster.start(LocalCluster.addresses("shm", nodes), className,
            List.of(), List.of(dir.toString()), List.of("-XX:+UseSerialGC"), Map.of(), null, out))
        {
            final int[] codes = cluster.await(TimeUnit.SECONDS.toNanos(150));
            assertArrayEquals(new int[nodes], codes, () -> cluster.errorOutput(0) + cluster.errorOutput(1));
        }
        assertEquals(expected, out.toString(StandardCharsets.UTF_8).trim().replace("\r\n", "\n"));
    }

    private static void compile(final String className, final String source, final Path dir)
    {
        final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        final StringWriter messages = new StringWriter();
        final SimpleJavaFileObject file = new SimpleJavaFileObject(
            URI.create("string:///" + className + ".java"), SimpleJavaFileObject.Kind.SOURCE)
        {
            @Override
            public CharSequence getCharContent(final boolean ignoreEncodingErrors)
            {
                return source;
            }
        };
        final boolean compiled = compiler.getTask(messages, null, null,
            List.of("-d", dir.toString(), "-cp", JavaProcess.classPath(), "-Xlint:all,-path", "-Werror"), null,
            List.of(file)).call();
        assertTrue(compiled, () -> className + " does not compile:\n" + messages);
    }

    private static Path readme()
    {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (null != dir && !Files.isRegularFile(dir.resolve("README.md")))
        {
            dir = dir.getParent();
        }
        assertTrue(null != dir, "no README.md above " + System.getProperty("user.dir"));
        return dir.resolve("README.md");
    }
}
