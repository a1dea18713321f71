package org.viadsm.bench.via;

import java.nio.ByteBuffer;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.bench.BenchCase;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

/**
 * One side of a benchmark connection: a NIC, its memory in one region registered for RDMA Read and Write, and one
 * VI at the reliability level the DSM uses. The region starts with {@link #MESSAGE_AREA_LENGTH} bytes of message
 * buffers (see the {@code *_OFFSET} constants, the same on both sides), followed by the cold pages, if any.
 */
public final class ViEndpoint implements AutoCloseable
{
    /** Bytes of a page. */
    public static final int PAGE_LENGTH = 4096;
    /** Where messages are sent from. */
    public static final int SEND_OFFSET = 0;
    /** Where receives land. */
    public static final int RECV_OFFSET = 16 * 1024;
    /** Where the peer's RDMA Writes land. */
    public static final int WRITE_OFFSET = 32 * 1024;
    /** Bytes of message buffers before the cold pages. */
    public static final int MESSAGE_AREA_LENGTH = 64 * 1024;
    static final long DISCRIMINATOR = 0xBE4C4L;

    final Nic nic;
    final ProtectionTag ptag;
    final ByteBuffer memory;
    final MemoryRegion region;
    final Vi vi;

    /**
     * Opens the NIC and makes the region and the VI; every page of the memory is touched, so none is missing when
     * timed.
     *
     * @param address    NIC address.
     * @param coldLength bytes of cold pages after the message area, a multiple of {@link #PAGE_LENGTH}.
     */
    public ViEndpoint(final String address, final int coldLength)
    {
        nic = Nic.open(address);
        try
        {
            ptag = nic.createPtag();
            memory = nic.allocateMemory(MESSAGE_AREA_LENGTH + coldLength);
            region = nic.registerMemory(memory, MemoryAttributes.remoteAccess(ptag));
            vi = nic.createVi(new ViAttributes().ptag(ptag).reliabilityLevel(ReliabilityLevel.RELIABLE_RECEPTION)
                .enableRdmaWrite(true).enableRdmaRead(true), null, null);
            touch(region.buffer(), 0, region.length());
        }
        catch (final RuntimeException ex)
        {
            nic.close();
            throw ex;
        }
    }

    /**
     * Writes a byte in every page, so the pages exist (memory from the NIC is sparse).
     *
     * @param buffer the memory.
     * @param offset first byte.
     * @param length bytes.
     */
    static void touch(final AtomicBuffer buffer, final int offset, final int length)
    {
        for (int at = offset; at < offset + length; at += PAGE_LENGTH)
        {
            buffer.putLong(at, at);
        }
    }

    /**
     * Starts a peer-to-peer connection to the VI of the endpoint at {@code remoteAddress}.
     *
     * @param remoteAddress the peer's NIC address.
     */
    public void connectRequest(final String remoteAddress)
    {
        vi.connectPeerRequest(remoteAddress, DISCRIMINATOR, BenchCase.TIMEOUT_NS);
    }

    /**
     * Waits for {@link #connectRequest(String)} to complete.
     */
    public void connectWait()
    {
        vi.connectPeerWait(BenchCase.TIMEOUT_NS);
    }

    /**
     * Offset of cold page {@code page} in the region.
     *
     * @param page page number.
     * @return its offset.
     */
    static long coldPage(final int page)
    {
        return MESSAGE_AREA_LENGTH + (long)page * PAGE_LENGTH;
    }

    /**
     * The NIC's address.
     *
     * @return the address others connect to.
     */
    public String address()
    {
        return nic.address();
    }

    /**
     * The connected (or to be connected) VI.
     *
     * @return the VI.
     */
    public Vi vi()
    {
        return vi;
    }

    /**
     * The registered memory.
     *
     * @return the region.
     */
    public MemoryRegion region()
    {
        return region;
    }

    @Override
    public void close()
    {
        nic.close();
    }
}
