package org.viadsm.via.memory;

/**
 * A protection tag: the key that ties VIs to the memory they may touch.
 * <p>
 * A data segment passes the NIC's protection check only if its region was registered under the ptag of the VI
 * that posted the descriptor; an RDMA or atomic operation passes only if the target region was registered under
 * the ptag of the VI on which the operation arrives. Tags are created and destroyed with
 * {@code Nic.createPtag()} and {@code Nic.destroyPtag(tag)} and mean nothing on another NIC.
 */
public final class ProtectionTag
{
    private final long nicId;
    private final int value;

    /**
     * Provider side: creates the tag object for a value a NIC issued.
     *
     * @param nicId identity of the issuing NIC, so that a tag from another NIC is recognised.
     * @param value the tag's value, unique on that NIC while it exists.
     */
    public ProtectionTag(final long nicId, final int value)
    {
        this.nicId = nicId;
        this.value = value;
    }

    /**
     * Identity of the NIC that issued this tag.
     *
     * @return the issuing NIC's identity.
     */
    public long nicId()
    {
        return nicId;
    }

    /**
     * The tag's value.
     *
     * @return the value the NIC compares.
     */
    public int value()
    {
        return value;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public boolean equals(final Object o)
    {
        return o instanceof ProtectionTag && ((ProtectionTag)o).nicId == nicId && ((ProtectionTag)o).value == value;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int hashCode()
    {
        return Long.hashCode(nicId) * 31 + value;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "ProtectionTag{" + value + '}';
    }
}
