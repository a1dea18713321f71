package org.viadsm.examples.hosts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.viadsm.via.provider.ucx.UcxNicProvider;

/**
 * Hosts with real addresses on one machine: network namespaces, each with one interface ({@code eth0}, the host's
 * address 10.201.N.h+1) joined by a veth pair to a bridge in the root namespace (10.201.N.254), so that processes
 * in different namespaces talk over real IP routes and a link can be taken down. File systems are shared, as on a
 * cluster with a shared home. Needs root and iproute2; outside CI ({@code CI} unset) a test that cannot have them
 * is skipped with a message, in CI it fails.
 * <p>
 * Names carry this JVM's process id, so parallel runs do not collide, and namespaces and bridges left by a dead
 * run are removed when the next one starts. {@link #close()} kills what runs in the namespaces and removes
 * everything, whatever happened in the test.
 */
final class NamespaceHosts implements AutoCloseable
{
    private static final String PREFIX = "vd";
    private static final long COMMAND_TIMEOUT_S = 30;

    private final String id = Long.toString(ProcessHandle.current().pid(), 36);
    private final int hosts;
    private final int subnet;
    private final Path directory;
    private final List<String> created = new ArrayList<>();

    private NamespaceHosts(final int hosts, final int subnet, final Path directory)
    {
        this.hosts = hosts;
        this.subnet = subnet;
        this.directory = directory;
    }

    /**
     * Creates the hosts, or skips (fails, in CI) the calling test if this machine cannot.
     *
     * @param hosts how many.
     * @return the hosts; close them.
     */
    static NamespaceHosts create(final int hosts)
    {
        requireTools("ip", "network namespaces need iproute2 (apt-get install iproute2)");
        if (!"root".equals(System.getProperty("user.name")))
        {
            unavailable("network namespaces need root");
        }
        removeStale();
        final NamespaceHosts created;
        try
        {
            created = new NamespaceHosts(hosts, freeSubnet(), Files.createTempDirectory("viadsm-hosts-"));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        try
        {
            created.setUp();
            return created;
        }
        catch (final RuntimeException | AssertionError ex)
        {
            created.close();
            throw ex;
        }
    }

    /**
     * Skips the calling test (fails it, in CI) unless every tool is on the PATH.
     *
     * @param tool      the program.
     * @param installIt what to install.
     */
    static void requireTools(final String tool, final String installIt)
    {
        if (!onPath(tool))
        {
            unavailable(installIt);
        }
    }

    /**
     * Skips the calling test (fails it, in CI) unless the ucx provider can open NICs here.
     */
    static void requireUcx()
    {
        if (!UcxNicProvider.isAvailable())
        {
            unavailable("the ucx provider needs UCX (apt-get install libucx0)");
        }
    }

    /**
     * Host {@code host}'s address.
     *
     * @param host from 0.
     * @return e.g. {@code 10.201.7.1}.
     */
    String address(final int host)
    {
        return "10.201." + subnet + "." + (host + 1);
    }

    /**
     * The hosts' network, e.g. for Open MPI's {@code oob_tcp_if_include}.
     *
     * @return e.g. {@code 10.201.7.0/24}.
     */
    String network()
    {
        return "10.201." + subnet + ".0/24";
    }

    /**
     * A command run on a host.
     *
     * @param host    the host.
     * @param command the command.
     * @return the command, entering the host's namespace first.
     */
    List<String> on(final int host, final List<String> command)
    {
        final List<String> wrapped = new ArrayList<>(List.of("ip", "netns", "exec", namespace(host)));
        wrapped.addAll(command);
        return wrapped;
    }

    /**
     * Takes a host's link down, as a cable pulled out: its packets go nowhere, nobody is told.
     *
     * @param host the host.
     */
    void linkDown(final int host)
    {
        run("ip", "link", "set", hostLink(host), "down");
    }

    /**
     * The environment that makes Open MPI's {@code mpirun} start its ranks on these hosts: a hostfile naming their
     * addresses, a launch agent that enters a host's namespace where {@code ssh} would log in, and the network its
     * daemons talk over.
     *
     * @return the variables.
     */
    Map<String, String> mpirunEnvironment()
    {
        final Path hostfile = directory.resolve("hostfile");
        final Path agent = directory.resolve("launch-agent");
        final StringBuilder hostLines = new StringBuilder();
        final StringBuilder cases = new StringBuilder();
        for (int host = 0; host < hosts; host++)
        {
            hostLines.append(address(host)).append(" slots=1\n");
            cases.append("    ").append(address(host)).append(") ns=").append(namespace(host)).append(" ;;\n");
        }
        try
        {
            Files.writeString(hostfile, hostLines, StandardCharsets.US_ASCII);
            Files.writeString(agent, "#!/bin/sh\n# mpirun's launch agent: runs a command on a host, as ssh would\n" +
                "host=\"$1\"\nshift\ncase \"$host\" in\n" + cases +
                "    *) echo \"launch agent: unknown host $host\" >&2; exit 1 ;;\nesac\n" +
                "exec ip netns exec \"$ns\" /bin/sh -c \"$*\"\n", StandardCharsets.US_ASCII);
            Files.setPosixFilePermissions(agent, PosixFilePermissions.fromString("rwx------"));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final Map<String, String> env = new HashMap<>();
        env.put("OMPI_MCA_orte_default_hostfile", hostfile.toString());
        env.put("OMPI_MCA_plm_rsh_agent", agent.toString());
        env.put("OMPI_MCA_oob_tcp_if_include", network());
        // Open MPI's daemons share the hardware topology through memory mapped at a hole in their address space,
        // and now and then crash there (hwloc_shmem_topology_write) when started in a namespace: not needed here
        env.put("OMPI_MCA_rtc_hwloc_vmhole", "none");
        return env;
    }

    /**
     * Kills every process in the namespaces, then removes them, the bridge and the files; idempotent, quiet.
     */
    @Override
    public void close()
    {
        for (int host = 0; host < hosts; host++)
        {
            killProcesses(namespace(host));
        }
        for (int i = created.size() - 1; i >= 0; i--)
        {
            final String[] what = created.get(i).split(" ", 2);
            runQuietly("ip", what[0], "del", what[1]);
        }
        created.clear();
        try (java.util.stream.Stream<Path> files = Files.list(directory))
        {
            files.forEach(file -> file.toFile().delete());
        }
        catch (final IOException ignore)
        {
            // gone already
        }
        directory.toFile().delete();
    }

    private void setUp()
    {
        run("ip", "link", "add", bridge(), "type", "bridge");
        created.add("link " + bridge());
        run("ip", "addr", "add", "10.201." + subnet + ".254/24", "dev", bridge());
        run("ip", "link", "set", bridge(), "up");
        for (int host = 0; host < hosts; host++)
        {
            final String ns = namespace(host);
            run("ip", "netns", "add", ns);
            created.add("netns " + ns);
            run("ip", "link", "add", hostLink(host), "type", "veth", "peer", "name", "eth0", "netns", ns);
            created.add("link " + hostLink(host));
            run("ip", "link", "set", hostLink(host), "master", bridge(), "up");
            run("ip", "-n", ns, "addr", "add", address(host) + "/24", "dev", "eth0");
            run("ip", "-n", ns, "link", "set", "eth0", "up");
            run("ip", "-n", ns, "link", "set", "lo", "up");
        }
    }

    private String namespace(final int host)
    {
        return PREFIX + id + "-h" + host;
    }

    private String bridge()
    {
        return PREFIX + id + "br";
    }

    private String hostLink(final int host)
    {
        return PREFIX + id + "h" + host;
    }

    /** A /24 in 10.201.0.0/16 that no interface of the root namespace uses. */
    private static int freeSubnet()
    {
        final String used = output("ip", "-4", "-o", "addr", "show");
        final int start = (int)(ProcessHandle.current().pid() % 200) + 20;
        for (int i = 0; i < 230; i++)
        {
            final int candidate = (start + i) % 230 + 20;
            if (!used.contains(" 10.201." + candidate + "."))
            {
                return candidate;
            }
        }
        throw new IllegalStateException("no free 10.201.x.0/24 network: " + used);
    }

    /** Removes namespaces and bridges of runs whose process is gone. */
    private static void removeStale()
    {
        for (final String line : output("ip", "netns", "list").split("\n"))
        {
            final String name = line.split(" ")[0];
            if (name.startsWith(PREFIX) && name.contains("-h") && !alive(name.substring(2, name.indexOf("-h"))))
            {
                killProcesses(name);
                runQuietly("ip", "netns", "del", name);
            }
        }
        for (final String line : output("ip", "-o", "link", "show", "type", "bridge").split("\n"))
        {
            final String[] fields = line.split(":\\s+");
            if (fields.length > 1 && fields[1].startsWith(PREFIX) && fields[1].endsWith("br") &&
                !alive(fields[1].substring(2, fields[1].length() - 2)))
            {
                runQuietly("ip", "link", "del", fields[1]);
            }
        }
    }

    private static boolean alive(final String id)
    {
        try
        {
            return ProcessHandle.of(Long.parseLong(id, 36)).map(ProcessHandle::isAlive).orElse(false);
        }
        catch (final NumberFormatException ex)
        {
            return true;
        }
    }

    private static void killProcesses(final String namespace)
    {
        for (final String pid : output("ip", "netns", "pids", namespace).split("\\s+"))
        {
            if (!pid.isBlank())
            {
                ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    private static void unavailable(final String why)
    {
        final String message = "multi-host tests skipped: " + why;
        if (null != System.getenv("CI"))
        {
            Assertions.fail(message.replace("skipped", "cannot run in CI"));
        }
        Assumptions.abort(message);
    }

    private static boolean onPath(final String tool)
    {
        for (final String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin").split(":"))
        {
            if (Files.isExecutable(Path.of(dir, tool)))
            {
                return true;
            }
        }
        return Files.isExecutable(Path.of("/usr/sbin", tool)) || Files.isExecutable(Path.of("/sbin", tool));
    }

    private static void run(final String... command)
    {
        final Result result = exec(command);
        if (0 != result.code)
        {
            unavailable(String.join(" ", command) + " failed: " + result.output.strip());
        }
    }

    private static void runQuietly(final String... command)
    {
        exec(command);
    }

    private static String output(final String... command)
    {
        return exec(command).output;
    }

    private static Result exec(final String... command)
    {
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(COMMAND_TIMEOUT_S, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                return new Result(-1, String.join(" ", command) + " did not finish");
            }
            return new Result(process.exitValue(), output);
        }
        catch (final IOException ex)
        {
            return new Result(-1, ex.toString());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }

    private record Result(int code, String output)
    {
    }
}
