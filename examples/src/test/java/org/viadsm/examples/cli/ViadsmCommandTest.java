package org.viadsm.examples.cli;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.via.internal.JavaProcess;
import org.viadsm.via.provider.ucx.UcxNicProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@Timeout(180)
class ViadsmCommandTest
{
    private static final String HELLO = String.join("\n",
        "import org.viadsm.dsm.Dsm;",
        "import org.viadsm.dsm.DsmContext;",
        "import org.viadsm.dsm.SharedLongArray;",
        "public final class Hello {",
        "    public static void main(final String[] args) {",
        "        try (Dsm dsm = Dsm.join(DsmContext.fromEnvironment())) {",
        "            final SharedLongArray counter = dsm.allocLongs(\"counter\", 1);",
        "            if (args.length > 0 && dsm.nodeId() == Integer.parseInt(args[0])) {",
        "                throw new IllegalStateException(\"node \" + dsm.nodeId() + \" gives up\");",
        "            }",
        "            for (int i = 0; i < 100; i++) {",
        "                dsm.lock(0).lock();",
        "                counter.set(0, counter.get(0) + 1);",
        "                dsm.lock(0).unlock();",
        "            }",
        "            dsm.barrier();",
        "            if (dsm.nodeId() == 0) {",
        "                System.out.println(dsm.nodeCount() + \" nodes counted \" + counter.get(0));",
        "            }",
        "        }",
        "    }",
        "}", "");

    @RegisterExtension
    final CommandConsole console = new CommandConsole();

    @Test
    void shouldListEveryApplicationWithItsDefaults()
    {
        assertEquals(0, execute("list"));
        for (final AppCatalog.Entry entry : AppCatalog.all())
        {
            assertTrue(out().contains(entry.name()), entry.name() + " is listed in " + out());
        }
        assertTrue(out().contains("-m16 -t"), out());
    }

    @Test
    void shouldRefuseBadArgumentsWithExitCodeTwoAndOneClearLine()
    {
        assertEquals(2, execute("run", "nosuchapp"));
        assertTrue(err().startsWith("viadsm: unknown application 'nosuchapp'; known: [fft, lu"), err());
        assertEquals(2, execute("run", "sor", "--nodes", "0"));
        assertTrue(err().contains("viadsm: --nodes must be at least 1, not 0"), err());
        assertEquals(2, execute("run", "water-nsquared", "/no/such/deck", "--nodes", "2"));
        assertTrue(err().contains("/no/such/deck"), err());
        assertEquals(2, execute("run", "fft", "-m7"));
        assertTrue(err().contains("-m 7: M must be even"), err());
        assertEquals(2, execute("run", "sor", "--provider", "carrier-pigeon"));
        assertTrue(err().contains("unknown --provider 'carrier-pigeon'"), err());
        assertEquals(2, execute("run", "sor", "--placement", "random"));
        assertTrue(err().contains("unknown placement 'random'"), err());
    }

    @Test
    void shouldRefuseAPageSizeTheContextWouldRefuse()
    {
        for (final String pageSize : new String[] {"1000", "256", "2097152", "0"})
        {
            assertEquals(2, execute("run", "fft", "--nodes", "2", "--page-size", pageSize));
            assertEquals("viadsm: --page-size must be a power of two in [512, 1048576], not " + pageSize,
                err().lines().findFirst().orElse(""), err());
            assertEquals(2, execute("node", "--app", "fft", "--page-size", pageSize));
            assertEquals("viadsm: --page-size must be a power of two in [512, 1048576], not " + pageSize,
                err().lines().findFirst().orElse(""), err());
        }
    }

    @Test
    void shouldRunOnThreadNodesAndReportStatistics(@TempDir final Path dir) throws Exception
    {
        // in a directory the run creates
        final Path json = dir.resolve("stats").resolve("stats.json");
        assertEquals(0, execute("run", "sor", "--nodes", "2", "--provider", "jvm", "--stats-json", json.toString(),
            "-m64", "-n64", "-i4", "-t"));
        assertTrue(out().contains("TEST PASSED"), out());
        assertTrue(out().contains("sor on 2 node(s), provider jvm"), out());
        assertTrue(out().contains("rd-fault") && out().contains("total"), out());
        final String stats = Files.readString(json);
        assertTrue(stats.startsWith("{\"app\":\"sor\",\"provider\":\"jvm\",\"nodes\":2,"), stats);
        assertTrue(stats.contains("\"verified\":true") && stats.contains("\"per_node\":[{\"node\":0,"), stats);
        assertTrue(stats.matches("(?s).*\"time_s\":[0-9.]+,\"app_time_s\":[0-9.]+,.*"), stats);
        assertTrue(out().contains("statistics of the timed phase:"), out());
        // SOR's timed phase is its iterations: two barriers each; the start's and the end's barriers are outside.
        assertEquals(2, stats.split("\"barriers\":8,", -1).length - 1, "each node's 4 iterations: " + stats);
        assertEquals(2, stats.split("\"measured_phases\":1[,}]", -1).length - 1, stats);
    }

    @Test
    void shouldSayVerifiedOnlyWhenTheApplicationCheckedItsResult(@TempDir final Path dir) throws Exception
    {
        final Path json = dir.resolve("stats.json");
        assertEquals(0, execute("run", "fft", "--nodes", "1", "--provider", "jvm", "--stats-json", json.toString(),
            "-m10"));
        assertTrue(out().matches("(?s).*\\Rfft on 1 node\\(s\\), provider jvm: [0-9.]+ s, not checked \\(fft checks " +
            "its result only with -t; the application ran [0-9.]+ s on node 0\\)\\R.*"), out());
        assertTrue(!out().contains("verified") && !out().contains("TEST PASSED"), out());
        assertTrue(Files.readString(json).contains("\"verified\":false,"), Files.readString(json));
        assertEquals(0, execute("run", "fft", "--nodes", "1", "--provider", "jvm", "--stats-json", json.toString(),
            "-m10", "-t"));
        assertTrue(out().matches("(?s).*\\Rfft on 1 node\\(s\\), provider jvm: [0-9.]+ s, verified \\(the " +
            "application ran [0-9.]+ s on node 0\\)\\R.*"), out());
        assertTrue(out().contains("TEST PASSED") && !out().contains("not checked"), out());
        assertTrue(Files.readString(json).contains("\"verified\":true,"), Files.readString(json));
    }

    @Test
    void shouldRunOnNodeProcessesOverSharedMemory()
    {
        assertEquals(0, execute("run", "lu", "--nodes", "2", "--provider", "shm", "-n64", "-b16", "-t"));
        assertTrue(out().contains("TEST PASSED"), out());
        assertTrue(out().contains("lu on 2 node(s), provider shm"), out());
        assertTrue(out().matches("(?s).*verified \\(the application ran [0-9.]+ s on node 0\\).*"), out());
    }

    @Test
    void shouldRunWarmOnTheSameNodeProcessesAndReportEveryRun(@TempDir final Path dir) throws Exception
    {
        final Path json = dir.resolve("stats.json");
        assertEquals(0, execute("run", "lu", "--nodes", "2", "--provider", "shm", "--warm", "2", "--stats-json",
            json.toString(), "-n64", "-b16", "-t"));
        assertEquals(3, out().split("TEST PASSED", -1).length - 1, out());
        assertTrue(out().contains("--- warm run 1 of 2 ---") && out().contains("--- warm run 2 of 2 ---"), out());
        assertTrue(out().matches("(?s).*verified \\(the application ran [0-9.]+ s on node 0 cold, then [0-9.]+, " +
            "[0-9.]+ s warm\\)\\Rstatistics summed over the 2 warm runs' timed phases:.*"), out());
        final String stats = Files.readString(json);
        assertTrue(stats.matches("(?s).*\"app_time_s\":([0-9.]+),\"app_times_s\":\\[\\1,[0-9.]+,[0-9.]+\\],.*"),
            stats);
        assertEquals(2, stats.split("\"measured_phases\":2[,}]", -1).length - 1, "one phase per warm run: " + stats);
        assertEquals(2, execute("run", "lu", "--warm", "-1"));
        assertTrue(err().contains("--warm must not be negative"), err());
    }

    @Test
    void shouldLetNodeZeroPrintToTheLaunchersOwnStandardOutputInOrder(@TempDir final Path dir) throws Exception
    {
        final Path out = dir.resolve("out.txt");
        final Path err = dir.resolve("err.txt");
        final Process launcher = JavaProcess.builder(ViadsmCommand.class, List.of(), List.of("run", "lu", "--nodes",
            "2", "--provider", "shm", "--warm", "1", "-n64", "-b16", "-t"))
            .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertEquals(0, launcher.waitFor(), Files.readString(err));
        final String text = Files.readString(out);
        assertEquals(2, text.split("TEST PASSED", -1).length - 1, "node 0's runs, once each: " + text);
        final int warm = text.indexOf("--- warm run 1 of 1 ---");
        final int passed = text.lastIndexOf("TEST PASSED");
        final int report = text.indexOf("lu on 2 node(s), provider shm");
        assertTrue(text.indexOf("TEST PASSED") < warm && warm < passed && passed < report,
            "node 0's output, then the launcher's report: " + text);
    }

    @Test
    void shouldHandStandardInputToEveryNodeProcess()
    {
        System.setIn(new ByteArrayInputStream("1.5e-16 27 2 6 -1 3000 2 0 1 6.212752\n".getBytes(
            StandardCharsets.US_ASCII)));
        assertEquals(0, execute("run", "water-nsquared", "--nodes", "2", "--provider", "shm"));
        assertTrue(out().contains("Using 2 procs on 2 steps of 27 mols"), out());
    }

    @Test
    void shouldExitOneAndNameTheNodeWhenVerificationFails()
    {
        assertEquals(1, execute("run", "ocean", "--nodes", "2", "--provider", "jvm", "-n18", "-r0"));
        assertTrue(err().contains("ocean verification failed on node"), err());
    }

    @Test
    void shouldLaunchAUsersProgramAndNameAFailingNode(@TempDir final Path dir) throws Exception
    {
        compileHello(dir);
        assertEquals(0, execute("launch", "--nodes", "3", "--class", "Hello", "-cp", dir.toString()));
        assertTrue(out().contains("3 nodes counted 300"), out());
        assertTrue(out().contains("Hello on 3 node(s), provider shm"), out());
        assertEquals(1, execute("launch", "--nodes", "3", "--class", "Hello", "-cp", dir.toString(), "1"));
        assertTrue(err().contains("viadsm: Hello failed: node 1 failed (exit code 1): Exception in thread \"main\" " +
            "java.lang.IllegalStateException: node 1 gives up"), err());
        assertEquals(2, execute("launch", "--nodes", "2", "--class", "Missing", "-cp", dir.toString()));
        assertTrue(err().contains("class Missing not found on the class path"), err());
    }

    @Test
    void shouldLaunchAUsersProgramOverUcx(@TempDir final Path dir) throws Exception
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
        compileHello(dir);
        assertEquals(0, execute("launch", "--nodes", "3", "--provider", "ucx", "--class", "Hello", "-cp",
            dir.toString()));
        assertTrue(out().contains("3 nodes counted 300"), out());
        assertTrue(out().contains("Hello on 3 node(s), provider ucx"), out());
    }

    @Test
    void shouldShowTheEngineBetweenTwoProcesses()
    {
        assertEquals(0, execute("demo", "via"));
        final List<String> expected = List.of("[peer] received a Send of 20 bytes: \"hello over a VI Send\"",
            "read \"greetings from process", "previous value 3, so the swap happened",
            "RDMA_PROT_ERROR", "DESC_FLUSHED_ERROR");
        for (final String line : expected)
        {
            assertTrue(out().contains(line), line + " in " + out());
        }
    }

    private static void compileHello(final Path dir) throws Exception
    {
        Files.writeString(dir.resolve("Hello.java"), HELLO);
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertEquals(0, javac.run(null, null, null, "-cp", JavaProcess.classPath(), "-d", dir.toString(),
            dir.resolve("Hello.java").toString()));
    }

    private int execute(final String... args)
    {
        return console.execute(args);
    }

    private String out()
    {
        return console.out();
    }

    private String err()
    {
        return console.err();
    }
}
