package org.viadsm.dsm;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.dsm.launch.LocalCluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A home that writes one word of every page while another node reads them all in some intervals and not in others:
 * the reader's copyset entries are left after two barriers with an invalid copy and joined again at its next fetch,
 * and the home's pages turn exclusive and shared again; every read sees the last stamp.
 */
@Timeout(120)
class HomeWriterTest
{
    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#sharedArea")
    void shouldReadEveryStampAcrossCopysetLeavesAndJoins(final String provider)
    {
        final int pages = 256;
        final int stride = 512;
        LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            final SharedDoubleArray data = dsm.allocDoubles("data", pages * stride, Placement.onNode(1));
            long stamp = 0;
            for (int round = 0; round < 40; round++)
            {
                for (int pass = 0; pass < 2; pass++)
                {
                    stamp++;
                    if (1 == dsm.nodeId())
                    {
                        for (int page = 0; page < pages; page++)
                        {
                            data.set(page * stride, stamp);
                        }
                    }
                    dsm.barrier();
                    if (0 == dsm.nodeId() && 2 != round % 3)
                    {
                        for (int page = 0; page < pages; page++)
                        {
                            assertEquals(stamp, data.get(page * stride),
                                "round " + round + " pass " + pass + " page " + page);
                        }
                    }
                    dsm.barrier();
                }
                for (int extra = 0; extra <= round % 4; extra++)
                {
                    dsm.barrier();
                }
            }
        });
    }
}
