package org.viadsm.via.engine;

/**
 * Layout of the header at the start of a NIC's shared area; the sections that follow are placed by
 * {@link NicGeometry}.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                         Magic (long)                          |  0
 *  +---------------------------------------------------------------+
 *  |                        Layout Version                         |  8
 *  +---------------------------------------------------------------+
 *  |          State: 0 initializing, 1 open, 2 closed              |  12
 *  +---------------------------------------------------------------+
 *  |                       Owner Process Id (long)                 |  16
 *  +---------------------------------------------------------------+
 *  |              Owner Process Start Time, epoch ms (long)        |  24
 *  +---------------------------------------------------------------+
 *  |                         NIC Id (long)                         |  32
 *  +---------------------------------------------------------------+
 *  |   Max VIs   |  Queue Depth  | Max Segments |    Max CQs       |  40..52
 *  +---------------------------------------------------------------+
 *  |  CQ Slots   |  Max Regions  | Error Ring Capacity | Request Ring Capacity |  56..68
 *  +---------------------------------------------------------------+
 *  |                        Reserved to 128                        |
 *  +---------------------------------------------------------------+
 * </pre>
 * The owner writes every field, then the state {@link #STATE_OPEN} with release semantics; a peer reads the state
 * with acquire semantics and ignores an area that is not open.
 */
public final class NicLayout
{
    /** The magic number: "VIADSMN1" in ASCII, little-endian. */
    public static final long MAGIC = 0x314E4D5344414956L;
    /** Version of this layout; peers refuse other versions. */
    public static final int LAYOUT_VERSION = 3;

    /** State: the owner is still writing the area. */
    public static final int STATE_INITIALIZING = 0;
    /** State: the NIC is open. */
    public static final int STATE_OPEN = 1;
    /** State: the NIC has closed; its VIs are gone. */
    public static final int STATE_CLOSED = 2;

    /** Offset of the magic number. */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the layout version. */
    public static final int VERSION_OFFSET = 8;
    /** Offset of the state word. */
    public static final int STATE_OFFSET = 12;
    /** Offset of the owner's process id. */
    public static final int OWNER_PID_OFFSET = 16;
    /** Offset of the owner's start time in epoch milliseconds, 0 if unknown. */
    public static final int OWNER_START_MS_OFFSET = 24;
    /** Offset of the NIC's identity, unique per opening. */
    public static final int NIC_ID_OFFSET = 32;
    /** Offset of the VI record count. */
    public static final int MAX_VIS_OFFSET = 40;
    /** Offset of the work-queue depth. */
    public static final int QUEUE_DEPTH_OFFSET = 44;
    /** Offset of the data-segment limit. */
    public static final int MAX_SEGMENTS_OFFSET = 48;
    /** Offset of the completion-queue count. */
    public static final int MAX_CQS_OFFSET = 52;
    /** Offset of the slots per completion queue. */
    public static final int CQ_SLOTS_OFFSET = 56;
    /** Offset of the registration-table size. */
    public static final int MAX_REGIONS_OFFSET = 60;
    /** Offset of the asynchronous-error ring capacity. */
    public static final int ERROR_RING_CAPACITY_OFFSET = 64;
    /** Offset of the connection-request ring capacity. */
    public static final int REQUEST_RING_CAPACITY_OFFSET = 68;
    /** Length of the header; the registration table follows. */
    public static final int HEADER_LENGTH = 128;

    /** Alignment of each section of the area: two cache lines, so that sections never share one. */
    public static final int SECTION_ALIGNMENT = 128;

    private NicLayout()
    {
    }
}
