package org.viadsm.bench.apps;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.viadsm.examples.cli.NodeSettings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A measured run's child JVM starts from the startup cache of what it runs: the baselines' from the threads'
 * profiles, a DSM run over jvm (whose nodes run in it) from the nodes', a DSM run over shm (which only launches the
 * node JVMs, each from the nodes' profiles) from the launchers' cache.
 */
class AppProcessTest
{
    private static final List<String> PROPERTIES = List.of("viadsm.aot.cache", "viadsm.aot.nodes",
        "viadsm.aot.threads");

    @Test
    void shouldStartEachRunsChildFromTheCacheOfWhatItRuns(@TempDir final Path dir) throws Exception
    {
        final List<String> previous = PROPERTIES.stream().map(System::getProperty).toList();
        try
        {
            System.setProperty("viadsm.aot.cache", Files.writeString(dir.resolve("viadsm.aot"), "c").toString());
            System.setProperty("viadsm.aot.nodes", Files.writeString(dir.resolve("viadsm-nodes.aot"), "n").toString());
            System.setProperty("viadsm.aot.threads",
                Files.writeString(dir.resolve("viadsm-threads.aot"), "t").toString());

            assertCache("viadsm-threads.aot", AppProcess.childJvmOptions(AppMeasurement.SEQ, "threads"));
            assertCache("viadsm-threads.aot", AppProcess.childJvmOptions(AppMeasurement.THREADS, "threads"));
            assertCache("viadsm-nodes.aot", AppProcess.childJvmOptions(AppMeasurement.DSM, "jvm"));
            assertCache("viadsm.aot", AppProcess.childJvmOptions(AppMeasurement.DSM, "shm"));
            assertEquals(NodeSettings.threadsJvmOptions(),
                AppProcess.childJvmOptions(AppMeasurement.THREADS, "threads"));
        }
        finally
        {
            for (int i = 0; i < PROPERTIES.size(); i++)
            {
                if (null == previous.get(i))
                {
                    System.clearProperty(PROPERTIES.get(i));
                }
                else
                {
                    System.setProperty(PROPERTIES.get(i), previous.get(i));
                }
            }
        }
    }

    private static void assertCache(final String name, final List<String> options)
    {
        final List<String> caches = options.stream().filter(option -> option.startsWith("-XX:AOTCache=")).toList();
        assertEquals(1, caches.size(), options.toString());
        assertTrue(caches.get(0).endsWith("/" + name), options.toString());
        assertTrue(options.containsAll(NodeSettings.JVM_OPTIONS), options.toString());
    }
}
