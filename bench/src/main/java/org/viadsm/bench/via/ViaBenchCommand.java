package org.viadsm.bench.via;

import java.util.List;
import java.util.concurrent.Callable;

import org.viadsm.bench.BenchCase;
import org.viadsm.bench.BenchOptions;
import org.viadsm.bench.BenchReport;
import org.viadsm.bench.BenchRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code viadsm bench via}: the emulated NIC against raw baselines measured in the same run between the same
 * processes or threads. The peer role runs in a child JVM ({@link PeerMain}).
 */
@Command(
    name = "via",
    mixinStandardHelpOptions = true,
    usageHelpWidth = 120,
    description = {
        "Measures the emulated VIA NIC against raw baselines taken in the same run, between the same processes.",
        "Prints a table (p50 and p99 of value and baseline, ratio = value / baseline, spread over rounds) and, " +
            "with --json, writes {\"bench\":\"via\",\"cores\":N,\"rows\":[{metric,value,unit,baseline," +
            "baseline_name,ratio,bytes_per_op,baseline_bytes_per_op}]} (value and baseline = p50)."},
    footer = {
        "",
        "Rows (a child JVM plays the peer; every wait, VIA or baseline, spins ~20 us then parks, as the VIA does):",
        "  shm.send_recv_64B_oneway   half the RTT of a 64 B Send/Recv ping-pong over the shm provider between two",
        "                             processes, vs the same ping-pong over two Agrona one-to-one rings in a",
        "                             /dev/shm file both processes map. Target ratio <= 3.",
        "  shm.rdma_write_4KiB_oneway the same with 4 KiB RDMA Writes with immediate data, vs 4 KiB ring messages.",
        "                             Target <= 3.",
        "  shm.rdma_read_4KiB         latency of one RDMA Read (post + sendWait) of a cold 4 KiB page of the peer's",
        "                             registered memory, vs copying a cold 4 KiB page the peer filled in a",
        "                             /dev/shm file. Pages in order over 2 x --cold-mib, after an untimed pass.",
        "                             Target <= 4.",
        "  shm.rdma_write_4KiB_stream GB/s of pipelined 4 KiB RDMA Writes (32 outstanding) into the peer's pages,",
        "                             timed per 64-page batch, vs a memcpy loop over the same amount of cold",
        "                             memory. Here ratio >= 0.5 is the target (higher is better).",
        "  tcp.send_recv_64B_rtt      RTT in us of a 64 B Send/Recv ping-pong over the tcp provider on loopback",
        "                             between the two processes, vs a plain NIO SocketChannel ping-pong",
        "                             (TCP_NODELAY) between them, waiting as --tcp-wait says. Target <= 1.5.",
        "  ucx.send_recv_64B_oneway   half the RTT of a 64 B Send/Recv ping-pong over the ucx provider between the",
        "                             two processes, vs a ping-pong of raw jucx active messages between them.",
        "                             Target <= 1.5.",
        "  ucx.rdma_write_4KiB_oneway the same with 4 KiB RDMA Writes with immediate data, vs 4 KiB active messages.",
        "                             Target <= 1.5.",
        "  ucx.rdma_read_4KiB         latency of one RDMA Read of a cold 4 KiB page of the peer's memory over ucx, vs",
        "                             a raw jucx get of a cold 4 KiB page of the peer's UCX-allocated memory.",
        "                             Target <= 1.5.",
        "  ucx.atomic_faa             latency of one remote fetch-and-add on a word of the peer's memory over ucx,",
        "                             vs ucp_atomic_op_nbx (through FFM: jucx has no atomics call) on a word of the",
        "                             peer's UCX-allocated memory through a raw jucx endpoint. Target <= 1.5.",
        "  jvm.send_recv_64B_oneway   half the RTT of a 64 B Send/Recv ping-pong between two threads over the jvm",
        "                             provider, vs two Agrona rings between two threads. Target <= 3.",
        "Rounds alternate which side goes first. On a 2-core machine results are noisy and bimodal: once a side of",
        "a ping-pong parks, answers wait for wake-ups and the pair may stay slow for a whole run. The table notes",
        "the share of round trips longer than the spin phase, runs cut short by --max-run-ms, and rows whose",
        "rounds differ by more than x1.5 (noisy)."})
public final class ViaBenchCommand implements Callable<Integer>
{
    @Mixin
    private BenchOptions options;

    @Option(names = "--tcp-wait", paramLabel = "MODE", defaultValue = "polled",
        description = "How the NIO baseline waits: polled (non-blocking reads, spin then park, as the VIA " +
            "waits) or blocking (reads sleep in the kernel). Default ${DEFAULT-VALUE}.")
    private String tcpWait;

    /**
     * Creates the command; picocli sets its options.
     */
    public ViaBenchCommand()
    {
    }

    /**
     * Runs the rows and publishes the report.
     *
     * @return 0, or 1 if a row failed.
     */
    @Override
    public Integer call()
    {
        options.validate();
        if (!"polled".equals(tcpWait) && !"blocking".equals(tcpWait))
        {
            throw options.usageError("--tcp-wait must be polled or blocking, not '" + tcpWait + "'");
        }
        final BenchReport report = new BenchReport("via", Runtime.getRuntime().availableProcessors(),
            options.describe());
        final BenchRunner runner = options.runner(System.err);
        try (ViaRig rig = new ViaRig(options.coldBytes()))
        {
            runner.run(cases(rig), report);
        }
        options.publish(report, System.out);
        return 0 == runner.failures() ? 0 : 1;
    }

    private List<BenchCase> cases(final ViaRig rig)
    {
        final List<BenchCase> all = List.of(
            ShmPingPongCase.sendRecv(rig),
            ShmPingPongCase.rdmaWrite(rig),
            new ShmReadCase(rig),
            new ShmStreamCase(rig),
            new TcpPingPongCase(rig, "blocking".equals(tcpWait)),
            UcxPingPongCase.sendRecv(rig),
            UcxPingPongCase.rdmaWrite(rig),
            new UcxReadCase(rig),
            new UcxAtomicCase(rig),
            new JvmPingPongCase());
        return options.select(all);
    }
}
