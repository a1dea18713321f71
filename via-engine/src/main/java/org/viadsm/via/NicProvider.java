package org.viadsm.via;


/**
 * A NIC implementation, found with {@link java.util.ServiceLoader} by the scheme of the address it serves
 * ({@code jvm}, {@code shm}, {@code tcp}), as M-VIA loads a device plugin per interconnect. Implementations are
 * listed in {@code META-INF/services/org.viadsm.via.NicProvider}.
 */
public interface NicProvider
{
    /**
     * The address scheme this provider serves, without the colon.
     *
     * @return e.g. {@code shm}.
     */
    String scheme();

    /**
     * Opens a NIC.
     *
     * @param address the whole address, scheme included.
     * @param context the NIC's settings, concluded; the NIC keeps it and reads no setting elsewhere.
     * @return the open NIC.
     * @throws IllegalArgumentException if the address is malformed, naming what is wrong.
     * @throws org.viadsm.via.ViaException if the NIC cannot be opened.
     */
    Nic open(String address, NicContext context);
}
