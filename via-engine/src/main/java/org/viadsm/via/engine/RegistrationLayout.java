package org.viadsm.via.engine;

/**
 * Layout of one entry of a NIC's registration table, the record a target's memory is checked against.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |        Generation: 0 while free, written last (release)       |  0
 *  +---------------------------------------------------------------+
 *  |                       Protection Tag                          |  4
 *  +-----------------------------------------------------------+-+-+
 *  |                          Reserved                         |R|W|  8   R: RDMA Read, W: RDMA Write
 *  +-----------------------------------------------------------+-+-+
 *  |                           Length                              |  12
 *  +---------------------------------------------------------------+
 *  |        Allocation Id: which file holds the bytes (long)       |  16
 *  +---------------------------------------------------------------+
 *  |  Location: offset in that allocation, or a native address     |  24
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class RegistrationLayout
{
    /** Offset of the generation word; 0 marks a free entry. */
    public static final int GENERATION_OFFSET = 0;
    /** Offset of the protection tag value. */
    public static final int PTAG_OFFSET = 4;
    /** Offset of the RDMA enable bits. */
    public static final int FLAGS_OFFSET = 8;
    /** Offset of the region length. */
    public static final int LENGTH_OFFSET = 12;
    /** Offset of the allocation id (provider-defined, 0 if unused). */
    public static final int ALLOCATION_ID_OFFSET = 16;
    /** Offset of the location (provider-defined: offset into the allocation, or an address). */
    public static final int LOCATION_OFFSET = 24;
    /** Length of one entry. */
    public static final int ENTRY_LENGTH = 32;

    /** Enable bit: peers may RDMA Write (VI records use the same bit). */
    public static final int FLAG_RDMA_WRITE = 0x1;
    /** Enable bit: peers may RDMA Read (VI records use the same bit). */
    public static final int FLAG_RDMA_READ = 0x2;

    private RegistrationLayout()
    {
    }

    /**
     * Encodes RDMA enable bits.
     *
     * @param rdmaWrite whether RDMA Write is enabled.
     * @param rdmaRead  whether RDMA Read is enabled.
     * @return the flags.
     */
    public static int flags(final boolean rdmaWrite, final boolean rdmaRead)
    {
        return (rdmaWrite ? FLAG_RDMA_WRITE : 0) | (rdmaRead ? FLAG_RDMA_READ : 0);
    }
}
