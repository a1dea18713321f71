package org.viadsm.via.engine;

import org.agrona.BitUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.via.AsyncError;

/**
 * A NIC's asynchronous-error ring: any side of a connection queues an {@link AsyncError} for the NIC, and the
 * owner takes them off on its next call into the NIC, so the handler never runs on a remote initiator's thread.
 * <pre>
 *   record type: AsyncError ordinal + 1
 *  +---------------------------------------------------------------+
 *  |                    VI Id (-1 for the NIC)                     |  0
 *  +---------------------------------------------------------------+
 *  |            Detail: ASCII, 32-bit length prefix                |  4
 *  +---------------------------------------------------------------+
 * </pre>
 * <b>Note:</b> {@link #offer} may be called by any thread of any process that maps the area; {@code drain} by one
 * thread at a time.
 */
final class ErrorRing extends AreaRing<ErrorRing.Consumer>
{
    /** Longest detail kept (less in a ring too small for it); longer ones are cut. */
    static final int MAX_DETAIL_LENGTH = 1000;

    private static final int VI_ID_OFFSET = 0;
    private static final int DETAIL_OFFSET = 4;
    private static final AsyncError[] ERRORS = AsyncError.values();

    /**
     * Receives errors taken off the ring.
     */
    @FunctionalInterface
    interface Consumer
    {
        /**
         * Called once per queued error.
         *
         * @param error  what happened.
         * @param viId   the VI concerned, or -1.
         * @param detail the sentence the producer wrote.
         */
        void onError(AsyncError error, int viId, String detail);
    }

    /**
     * Binds to the error ring of an area.
     *
     * @param area     the NIC area.
     * @param geometry the area's geometry.
     */
    ErrorRing(final AtomicBuffer area, final NicGeometry geometry)
    {
        super(area, geometry.errorRingOffset(), geometry.errorRingLength());
    }

    /**
     * Queues an error.
     *
     * @param error  what happened.
     * @param viId   the VI concerned on the ring's NIC, or -1.
     * @param detail a sentence naming the values involved.
     * @return false if the ring was full and the error was lost.
     */
    boolean offer(final AsyncError error, final int viId, final String detail)
    {
        final int maxLength = Math.min(MAX_DETAIL_LENGTH, maxRecordLength() - DETAIL_OFFSET - BitUtil.SIZE_OF_INT);
        final String text = detail.length() > maxLength ? detail.substring(0, maxLength) : detail;
        final int length = DETAIL_OFFSET + BitUtil.SIZE_OF_INT + text.length();
        final int index = tryClaim(error.ordinal() + 1, length);
        if (index <= 0)
        {
            return false;
        }
        final AtomicBuffer buffer = buffer();
        buffer.putInt(index + VI_ID_OFFSET, viId);
        buffer.putStringAscii(index + DETAIL_OFFSET, text);
        return commit(index);
    }

    /**
     * Hands a record to the consumer; drops one that is not an error this ring's producers write (an unknown type,
     * a detail longer than the record), which only a process that scribbled on the area could have put there.
     */
    @Override
    void onRecord(
        final Consumer consumer, final int typeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final int detailLength = length >= DETAIL_OFFSET + BitUtil.SIZE_OF_INT ?
            buffer.getInt(index + DETAIL_OFFSET) : -1;
        if (typeId >= 1 && typeId <= ERRORS.length && detailLength >= 0 &&
            detailLength <= length - DETAIL_OFFSET - BitUtil.SIZE_OF_INT)
        {
            consumer.onError(ERRORS[typeId - 1], buffer.getInt(index + VI_ID_OFFSET),
                buffer.getStringWithoutLengthAscii(index + DETAIL_OFFSET + BitUtil.SIZE_OF_INT, detailLength));
        }
    }
}
