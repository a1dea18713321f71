package org.viadsm.via.descriptor;

/**
 * The NIC's side of a {@link Descriptor}'s hand-off: a work queue takes ownership when the descriptor is posted,
 * writes its completion, and gives it back when a done or wait call returns it. Providers call these; consumers
 * only post, reap and read.
 * <p>
 * <b>Note:</b> {@link #post(Descriptor)} is safe against concurrent posts of the same descriptor (exactly one
 * succeeds); the others are called by the thread that owns the descriptor at that point. The status word is written
 * last with release semantics, so everything written before it happens-before a consumer's acquire read of a
 * completed status.
 */
public final class DescriptorOwnership
{
    private DescriptorOwnership()
    {
    }

    /**
     * Takes ownership at post time, with a compare-and-set so that of two threads posting the same descriptor at
     * once exactly one succeeds, and clears the status word.
     *
     * @param descriptor the descriptor being posted.
     * @throws IllegalStateException if the descriptor is already posted.
     */
    public static void post(final Descriptor descriptor)
    {
        if (!descriptor.claim())
        {
            throw new IllegalStateException("descriptor is posted; wait for it to complete before reusing it");
        }
    }

    /**
     * Returns ownership to the consumer, when a done or wait call hands the descriptor back.
     *
     * @param descriptor the descriptor handed back.
     */
    public static void giveBack(final Descriptor descriptor)
    {
        descriptor.release();
    }

    /**
     * Writes the completed length and then the status word, with release semantics.
     *
     * @param descriptor the completed descriptor.
     * @param status     status bits; {@link DescriptorStatus#DONE} is added.
     * @param length     bytes transferred.
     */
    public static void complete(final Descriptor descriptor, final int status, final int length)
    {
        descriptor.complete(length, status | DescriptorStatus.DONE);
    }

    /**
     * Writes received immediate data, the length and then the status word, with release semantics.
     *
     * @param descriptor    the completed receive descriptor.
     * @param status        status bits; {@link DescriptorStatus#DONE} and {@link DescriptorStatus#IMMEDIATE} are
     *                      added.
     * @param length        bytes transferred.
     * @param immediateData the immediate data received.
     */
    public static void complete(
        final Descriptor descriptor, final int status, final int length, final int immediateData)
    {
        descriptor.receivedImmediateData(immediateData);
        complete(descriptor, status | DescriptorStatus.IMMEDIATE, length);
    }
}
