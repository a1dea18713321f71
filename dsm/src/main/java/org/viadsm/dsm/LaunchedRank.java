package org.viadsm.dsm;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;

import org.viadsm.dsm.rendezvous.HostAddress;
import org.viadsm.dsm.rendezvous.Job;
import org.viadsm.dsm.rendezvous.Rendezvous;
import org.viadsm.via.internal.Settings;

import static org.viadsm.dsm.DsmContext.ADDRESSES_PROP_NAME;
import static org.viadsm.dsm.DsmContext.INTERFACE_PROP_NAME;
import static org.viadsm.dsm.DsmContext.PROVIDER_DEFAULT;
import static org.viadsm.dsm.DsmContext.PROVIDER_PROP_NAME;
import static org.viadsm.dsm.DsmContext.RENDEZVOUS_DIR_PROP_NAME;
import static org.viadsm.dsm.DsmContext.RENDEZVOUS_PROP_NAME;

/**
 * How a process that a launcher ({@code mpirun}, {@code srun}, {@code mpiexec}) started, with no addresses given,
 * joins as the launcher's rank: its rank, the job's size, the rendezvous and the NIC address come from the
 * launcher's variables and the context's settings.
 *
 * @param rendezvous   the job's rendezvous: a directory, or rank 0's listener at {@code viadsm.rendezvous}.
 * @param localAddress the address this rank's NIC opens at.
 * @param rank         the launcher's rank, the node id.
 */
record LaunchedRank(Rendezvous rendezvous, String localAddress, int rank)
{
    /**
     * The launcher's rank this process is.
     *
     * @throws IllegalArgumentException if no launcher started it: the addresses are then missing.
     */
    static LaunchedRank of(final Settings settings, final Map<String, String> environment)
    {
        final Job job = Job.detect(environment);
        if (null == job)
        {
            throw new IllegalArgumentException("missing setting: environment variable " +
                Settings.envName(ADDRESSES_PROP_NAME) + " or system property " + ADDRESSES_PROP_NAME +
                " (viadsm run and launch set them), and no launcher (mpirun, srun, mpiexec) started this process");
        }
        final String endpoint = settings.text(RENDEZVOUS_PROP_NAME, "");
        final InetSocketAddress at = endpoint.isEmpty() ? null : Rendezvous.endpoint(endpoint);
        final Path base = Paths.get(settings.text(RENDEZVOUS_DIR_PROP_NAME,
            Paths.get(System.getProperty("user.home"), ".viadsm", "rendezvous").toString()));
        final String nic = job.nicAddress(settings.text(PROVIDER_PROP_NAME, PROVIDER_DEFAULT),
            HostAddress.pick(settings.text(INTERFACE_PROP_NAME, ""), at));
        final Rendezvous rendezvous = null == at ? Rendezvous.directory(job.directory(base), job.rank(), job.size()) :
            Rendezvous.tcp(at, job.rank(), job.size());
        return new LaunchedRank(rendezvous, nic, job.rank());
    }
}
