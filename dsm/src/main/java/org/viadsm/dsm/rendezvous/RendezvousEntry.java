package org.viadsm.dsm.rendezvous;

import java.util.List;

import org.viadsm.dsm.wire.WireCodec;

/**
 * One rank's value in one exchange of a rendezvous, as it travels (Kryo-encoded) or sits in a file.
 *
 * @param topic what is exchanged, e.g. {@code addresses}.
 * @param rank  the rank that published it.
 * @param size  the job's size as that rank sees it.
 * @param value the value.
 */
record RendezvousEntry(String topic, int rank, int size, String value)
{
    /** Longest encoded entry: a node's statistics as JSON fit with room to spare. */
    static final int MAX_LENGTH = 64 * 1024;

    static WireCodec codec()
    {
        return new WireCodec(MAX_LENGTH, List.of(RendezvousEntry.class));
    }
}
