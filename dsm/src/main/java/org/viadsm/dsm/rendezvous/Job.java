package org.viadsm.dsm.rendezvous;

import java.nio.file.Path;
import java.util.Map;

/**
 * The launcher job this process is a rank of, from the environment the launcher gives each process:
 * <table>
 * <caption>Launchers</caption>
 * <tr><th>launcher</th><th>rank, size</th><th>job key</th></tr>
 * <tr><td>Open MPI {@code mpirun}</td><td>{@code OMPI_COMM_WORLD_RANK}, {@code OMPI_COMM_WORLD_SIZE}</td>
 * <td>{@code OMPI_MCA_ess_base_jobid} (or {@code PMIX_NAMESPACE}) and a hash of {@code OMPI_MCA_orte_hnp_uri}
 * (mpirun's address, which differs from run to run)</td></tr>
 * <tr><td>Slurm {@code srun}</td><td>{@code SLURM_PROCID}, {@code SLURM_NTASKS}</td>
 * <td>{@code SLURM_JOB_ID} and {@code SLURM_STEP_ID}</td></tr>
 * <tr><td>MPICH {@code mpiexec} (Hydra)</td><td>{@code PMI_RANK}, {@code PMI_SIZE}</td><td>none</td></tr>
 * </table>
 * {@code VIADSM_JOB_ID} gives or overrides the key. The key names the job's rendezvous directory.
 *
 * @param launcher the launcher, e.g. {@code Open MPI}.
 * @param rank     this process's rank.
 * @param size     the number of ranks.
 * @param key      the job's key (letters, digits, '.', '_', '-'), or null if the launcher gives none.
 */
public record Job(String launcher, int rank, int size, String key)
{
    /** Environment variable that gives or overrides a job's key. */
    public static final String JOB_ID_ENV = "VIADSM_JOB_ID";

    /**
     * Validates the job.
     */
    public Job
    {
        if (size < 1 || rank < 0 || rank >= size)
        {
            throw new IllegalArgumentException(launcher + " gave rank " + rank + " of " + size);
        }
    }

    /**
     * Reads the job from the environment.
     *
     * @param env the environment, e.g. {@link System#getenv()}.
     * @return the job, or null if no launcher started this process.
     * @throws IllegalArgumentException if a launcher's variables are malformed.
     */
    public static Job detect(final Map<String, String> env)
    {
        final Job job;
        if (env.containsKey("OMPI_COMM_WORLD_RANK"))
        {
            final String id = env.getOrDefault("OMPI_MCA_ess_base_jobid", env.get("PMIX_NAMESPACE"));
            final String uri = env.get("OMPI_MCA_orte_hnp_uri");
            job = new Job("Open MPI", integer(env, "OMPI_COMM_WORLD_RANK"), integer(env, "OMPI_COMM_WORLD_SIZE"),
                null == id ? null : "ompi-" + id + (null == uri ? "" : "-" + Integer.toHexString(uri.hashCode())));
        }
        else if (env.containsKey("SLURM_PROCID") && (env.containsKey("SLURM_NTASKS") ||
            env.containsKey("SLURM_NPROCS")))
        {
            final String id = env.get("SLURM_JOB_ID");
            job = new Job("Slurm", integer(env, "SLURM_PROCID"),
                integer(env, env.containsKey("SLURM_NTASKS") ? "SLURM_NTASKS" : "SLURM_NPROCS"),
                null == id ? null : "slurm-" + id + "." + env.getOrDefault("SLURM_STEP_ID", "0"));
        }
        else if (env.containsKey("PMI_RANK"))
        {
            job = new Job("MPICH", integer(env, "PMI_RANK"), integer(env, "PMI_SIZE"), null);
        }
        else
        {
            return null;
        }
        final String override = env.get(JOB_ID_ENV);
        final String key = null != override && !override.isBlank() ? override.trim() : job.key();
        return new Job(job.launcher(), job.rank(), job.size(), null == key ? null : sanitize(key));
    }

    /**
     * The job's rendezvous directory under a base directory.
     *
     * @param base e.g. {@code ~/.viadsm/rendezvous}, on a file system every rank shares.
     * @return the directory.
     * @throws IllegalStateException if the launcher gives no job key and {@value #JOB_ID_ENV} is not set.
     */
    public Path directory(final Path base)
    {
        if (null == key)
        {
            throw new IllegalStateException(launcher + " gives its processes no job id, so the ranks cannot find " +
                "a rendezvous directory: set " + JOB_ID_ENV + " to a value unique to the job in every rank's " +
                "environment, or rendezvous at host:port (--rendezvous, VIADSM_RENDEZVOUS)");
        }
        return base.resolve(key);
    }

    /**
     * The NIC address this rank opens: on the host's address with a port the system picks, for network
     * providers; a name unique to the job and rank for {@code shm}.
     *
     * @param provider the provider, e.g. {@code tcp}.
     * @param host     the address other hosts reach this one at.
     * @return the address to open, e.g. {@code tcp:10.0.0.5:0}.
     * @throws IllegalArgumentException for {@code jvm}, whose nodes are threads of one JVM.
     */
    public String nicAddress(final String provider, final java.net.InetAddress host)
    {
        switch (provider)
        {
            case "jvm":
                throw new IllegalArgumentException("the jvm provider runs nodes as threads of one JVM, not as the " +
                    "ranks of " + launcher + "; use tcp (or shm on one host)");
            case "shm":
                return "shm:" + (null == key ? "job" : key) + "-" + rank;
            default:
                return provider + ":" + host.getHostAddress() + ":0";
        }
    }

    private static int integer(final Map<String, String> env, final String name)
    {
        final String value = env.get(name);
        try
        {
            return Integer.parseInt(null == value ? "" : value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("environment variable " + name + " must be a whole number, not '" +
                value + "'", ex);
        }
    }

    private static String sanitize(final String key)
    {
        return key.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
