package org.viadsm.dsm.rendezvous;

import java.net.InetAddress;
import java.nio.file.Paths;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JobTest
{
    @Test
    void shouldReadEachLaunchersRankSizeAndKey()
    {
        final Job ompi = Job.detect(Map.of("OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "3",
            "OMPI_MCA_ess_base_jobid", "1572667393", "OMPI_MCA_orte_hnp_uri", "1572667392.0;tcp://10.0.0.1:5"));
        assertEquals(2, ompi.rank());
        assertEquals(3, ompi.size());
        assertTrue(ompi.key().startsWith("ompi-1572667393-"), ompi.key());
        assertEquals(new Job("Slurm", 1, 4, "slurm-77.0"),
            Job.detect(Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "4", "SLURM_JOB_ID", "77", "SLURM_STEP_ID", "0")));
        assertEquals(new Job("MPICH", 0, 2, null), Job.detect(Map.of("PMI_RANK", "0", "PMI_SIZE", "2")));
        assertEquals(new Job("MPICH", 0, 2, "my_job"),
            Job.detect(Map.of("PMI_RANK", "0", "PMI_SIZE", "2", "VIADSM_JOB_ID", "my/job")));
        assertNull(Job.detect(Map.of("HOME", "/root")));
    }

    @Test
    void shouldNameWhatIsMissingOrMalformed()
    {
        assertEquals("environment variable OMPI_COMM_WORLD_SIZE must be a whole number, not 'x'",
            assertThrows(IllegalArgumentException.class, () -> Job.detect(Map.of("OMPI_COMM_WORLD_RANK", "0",
                "OMPI_COMM_WORLD_SIZE", "x"))).getMessage());
        assertEquals("Slurm gave rank 4 of 4", assertThrows(IllegalArgumentException.class,
            () -> Job.detect(Map.of("SLURM_PROCID", "4", "SLURM_NTASKS", "4"))).getMessage());
        final IllegalStateException noKey = assertThrows(IllegalStateException.class,
            () -> new Job("MPICH", 0, 2, null).directory(Paths.get("/tmp")));
        assertTrue(noKey.getMessage().contains("set VIADSM_JOB_ID"), noKey.getMessage());
    }

    @Test
    void shouldOpenNetworkNicsOnTheHostsAddressAndShmNicsByJobAndRank() throws Exception
    {
        final Job job = new Job("Slurm", 1, 2, "slurm-5.0");
        assertEquals("tcp:10.1.2.3:0", job.nicAddress("tcp", InetAddress.getByAddress(new byte[] {10, 1, 2, 3})));
        assertEquals("shm:slurm-5.0-1", job.nicAddress("shm", InetAddress.getLoopbackAddress()));
        assertThrows(IllegalArgumentException.class, () -> job.nicAddress("jvm", InetAddress.getLoopbackAddress()));
    }
}
