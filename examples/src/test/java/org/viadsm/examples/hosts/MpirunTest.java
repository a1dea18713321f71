package org.viadsm.examples.hosts;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.examples.cli.NodeSettings;
import org.viadsm.examples.cli.ViadsmCommand;
import org.viadsm.via.internal.JavaProcess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Open MPI's {@code mpirun} starts the nodes: the same command line on one host and across the namespace hosts
 * (where the environment names the hosts: a hostfile, and a launch agent that enters a host where ssh would log
 * in). Every rank finds the others through the rendezvous directory, with no option; node 0 prints the counts.
 */
@Timeout(300)
class MpirunTest
{
    private static final int RANKS = 3;

    @TempDir
    Path rendezvous;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"one host", "namespace hosts"})
    void shouldRunTheSameCommandLineOnOneHostAndAcrossHosts(final String where, @TempDir final Path session)
        throws Exception
    {
        NamespaceHosts.requireTools("mpirun", "mpirun tests need Open MPI (apt-get install openmpi-bin)");
        final List<String> command = new ArrayList<>(List.of("mpirun", "--allow-run-as-root", "--oversubscribe",
            "-np", Integer.toString(RANKS)));
        command.addAll(JavaProcess.command(ViadsmCommand.class.getName(), NodeSettings.JVM_OPTIONS,
            List.of("node", "--class", HostReport.class.getName())));
        final ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("VIADSM_RENDEZVOUS_DIR", rendezvous.toString());
        // Open MPI's session directory (and its daemons' rendezvous files) in a folder of this run, not in the
        // shared /tmp, where a concurrent mpirun's could collide with it; removed with the folder
        builder.environment().put("OMPI_MCA_orte_tmpdir_base", session.toString());
        builder.environment().put("TMPDIR", session.toString());
        try (NamespaceHosts hosts = "one host".equals(where) ? null : NamespaceHosts.create(RANKS))
        {
            if (null != hosts)
            {
                builder.environment().putAll(hosts.mpirunEnvironment());
            }
            final Process mpirun = builder.start();
            mpirun.getOutputStream().close();
            final Captured out = Captured.of(mpirun.getInputStream());
            final Captured err = Captured.of(mpirun.getErrorStream());
            try
            {
                assertTrue(mpirun.waitFor(180, TimeUnit.SECONDS), "mpirun hangs: " + out.text() + err.text());
                out.await(10_000);
                assertEquals(0, mpirun.exitValue(), out.text() + err.text());
                final String text = out.text();
                for (int rank = 0; rank < RANKS; rank++)
                {
                    final String at = "node " + rank + " of " + RANKS + " at " + (null == hosts ? "" :
                        hosts.address(rank) + "\n");
                    assertTrue(text.contains(at), at + " in " + text);
                }
                assertTrue(text.contains("counter 300\n"), text);
                assertTrue(text.contains(HostReport.class.getName() + " on 3 node(s), provider tcp: "), text);
                assertTrue(text.contains("\ntotal "), text);
            }
            finally
            {
                mpirun.descendants().forEach(ProcessHandle::destroyForcibly);
                mpirun.destroyForcibly();
            }
        }
        try (Stream<Path> left = Files.walk(rendezvous))
        {
            assertEquals(List.of(rendezvous), left.toList(), "rendezvous files left behind");
        }
    }
}
