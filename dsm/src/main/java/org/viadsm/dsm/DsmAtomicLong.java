package org.viadsm.dsm;

/**
 * A shared long updated atomically, allocated collectively with {@link Dsm#allocAtomicLong(String)}: element 0
 * of a one-element {@link SharedLongArray}, with the methods of {@link java.util.concurrent.atomic.AtomicLong}.
 * Every operation is a remote atomic at the long's home (the node its placement names; node 0 by default).
 * <pre>{@code
 * DsmAtomicLong hits = dsm.allocAtomicLong("hits");
 * hits.incrementAndGet();            // on every node, as often as it likes
 * dsm.barrier();
 * long total = hits.get();
 * }</pre>
 * Memory consistency effects: as for {@link SharedLongArray#getAndAdd(int, long)}: the operations on the long
 * are linearizable, from every node, and {@link #get()} returns the latest value; they create no happens-before
 * edge between nodes by themselves.
 * <p>
 * <b>Note:</b> like its {@link Dsm}, used by one thread at a time.
 */
public final class DsmAtomicLong
{
    private final SharedLongArray array;

    DsmAtomicLong(final SharedLongArray array)
    {
        this.array = array;
    }

    /**
     * The name it was allocated under.
     *
     * @return the name.
     */
    public String name()
    {
        return array.name();
    }

    /**
     * The current value, read at the home.
     *
     * @return the value.
     * @throws DsmException if the home cannot be reached.
     */
    public long get()
    {
        return array.getVolatile(0);
    }

    /**
     * Sets the value at the home.
     *
     * @param newValue the value.
     * @throws DsmException if the home cannot be reached.
     */
    public void set(final long newValue)
    {
        array.setVolatile(0, newValue);
    }

    /**
     * Sets the value and returns the previous one.
     *
     * @param newValue the value.
     * @return the previous value.
     * @throws DsmException if the home cannot be reached.
     */
    public long getAndSet(final long newValue)
    {
        return array.getAndSet(0, newValue);
    }

    /**
     * Sets the value to {@code newValue} if it is {@code expected}.
     *
     * @param expected the value it must have.
     * @param newValue the value to set.
     * @return true if it was {@code expected} and is now {@code newValue}.
     * @throws DsmException if the home cannot be reached.
     */
    public boolean compareAndSet(final long expected, final long newValue)
    {
        return array.compareAndSet(0, expected, newValue);
    }

    /**
     * Adds {@code delta} and returns the previous value.
     *
     * @param delta the addend.
     * @return the previous value.
     * @throws DsmException if the home cannot be reached.
     */
    public long getAndAdd(final long delta)
    {
        return array.getAndAdd(0, delta);
    }

    /**
     * Adds {@code delta} and returns the new value.
     *
     * @param delta the addend.
     * @return the new value.
     * @throws DsmException if the home cannot be reached.
     */
    public long addAndGet(final long delta)
    {
        return array.addAndGet(0, delta);
    }

    /**
     * Adds 1 and returns the previous value.
     *
     * @return the previous value.
     * @throws DsmException if the home cannot be reached.
     */
    public long getAndIncrement()
    {
        return array.getAndAdd(0, 1L);
    }

    /**
     * Adds 1 and returns the new value.
     *
     * @return the new value.
     * @throws DsmException if the home cannot be reached.
     */
    public long incrementAndGet()
    {
        return array.addAndGet(0, 1L);
    }

    /**
     * Subtracts 1 and returns the new value.
     *
     * @return the new value.
     * @throws DsmException if the home cannot be reached.
     */
    public long decrementAndGet()
    {
        return array.addAndGet(0, -1L);
    }

    /**
     * The current value, as {@link #get()} reads it.
     *
     * @return the value in decimal.
     */
    @Override
    public String toString()
    {
        return Long.toString(get());
    }
}
