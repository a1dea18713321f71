
    /**
     * Atomically adds {@code delta} to an element, at its home, and returns the previous value: a remote atomic on
     * the home's copy, wherever this node's copy of the page is.
     * <p>
     * Memory consistency effects: the atomic operations on one element ({@code getAndAdd}, {@code addAndGet},
     * {@code compareAndSet}, {@code getAndSet}, {@code getVolatile}, {@code setVolatile}, from any node) are
     * linearizable: they take effect one at a time on the home's copy, each seeing those before it, in an order that
     * keeps every node's program order. Writes to the element that happen-before an operation (plain writes of
     * this node before it, writes of other nodes before a release this node has acquired) are visible to it; its
     * result is visible to reads that happen-after it (plain reads on this node after it; reads on another node
     * after this node's next release and a matching acquire there). An operation creates no happens-before edge
     * between nodes by itself: a node that sees its result does not see this node's other writes until it
     * synchronizes with this node (lock, condition, barrier, semaphore). Do not mix plain writes by one node with
     * atomic operations by another on one element between synchronizations: that is a data race.
     *
     * @param index the element.
     * @param delta the addend.
     * @return the element's value before the addition.
     * @throws IndexOutOfBoundsException if {@code index} is outside the array.
     * @throws DsmException              if the element's home cannot be reached.
     */
    public @type@ getAndAdd(final int index, final @type@ delta)
    {
        return faults.atomics().apply@Name@(offset + Objects.checkIndex(index, length), ElementAtomics.GET_AND_ADD,
            delta, 0);
    }

    /**
     * Atomically adds {@code delta} to an element, at its home, and returns the new value; memory effects as for
     * {@link #getAndAdd(int, @type@)}.
     *
     * @param index the element.
     * @param delta the addend.
     * @return the element's value after the addition.
     * @throws IndexOutOfBoundsException if {@code index} is outside the array.
     * @throws DsmException              if the element's home cannot be reached.
     */
    public @type@ addAndGet(final int index, final @type@ delta)
    {
        return getAndAdd(index, delta) + delta;
    }

    /**
     * Atomically sets an element to {@code newValue}, at its home, if it holds {@code expected}; memory effects as
     * for {@link #getAndAdd(int, @type@)}.
     *
     * @param index    the element.
     * @param expected the value the element must hold.
     * @param newValue the value to store.
     * @return true if the element held {@code expected} and now holds {@code newValue}.
     * @throws IndexOutOfBoundsException if {@code index} is outside the array.
     * @throws DsmException              if the element's home cannot be reached.
     */
    public boolean compareAndSet(final int index, final @type@ expected, final @type@ newValue)
    {
        return expected == faults.atomics().apply@Name@(offset + Objects.checkIndex(index, length),
            ElementAtomics.COMPARE_AND_EXCHANGE, newValue, expected);
    }

    /**
     * Atomically sets an element to {@code newValue}, at its home, and returns the previous value; memory effects
     * as for {@link #getAndAdd(int, @type@)}.
     *
     * @param index    the element.
     * @param newValue the value to store.
     * @return the element's value before.
     * @throws IndexOutOfBoundsException if {@code index} is outside the array.
     * @throws DsmException              if the element's home cannot be reached.
     */
    public @type@ getAndSet(final int index, final @type@ newValue)
    {
        return faults.atomics().apply@Name@(offset + Objects.checkIndex(index, length), ElementAtomics.GET_AND_SET,
            newValue, 0);
    }

    /**
     * Reads an element at its home, as an atomic operation: the latest value in the element's order of atomic
     * operations, never a stale cached copy (this node's copy is refreshed with it); memory effects as for
     * {@link #getAndAdd(int, @type@)}. Use it to read an element other nodes change with atomic operations
     * without synchronizing, as a flag or a counter polled in a loop.
     *
     * @param index the element.
     * @return the home's value.
     * @throws IndexOutOfBoundsException if {@code index} is outside the array.
     * @throws DsmException              if the element's home cannot be reached.
     */
    public @type@ getVolatile(final int index)
    {
        return faults.atomics().apply@Name@(offset + Objects.checkIndex(index, length), ElementAtomics.GET, 0, 0);
    }

    /**
     * Writes an element at its home, as an atomic operation ({@link #getAndSet(int, @type@)} without the result);
     * memory effects as for {@link #getAndAdd(int, @type@)}.
     *
     * @param index    the element.
     * @param newValue the value to store.
     * @throws IndexOutOfBoundsException if {@code index} is outside the array.
     * @throws DsmException              if the element's home cannot be reached.
     */
    public void setVolatile(final int index, final @type@ newValue)
    {
        getAndSet(index, newValue);
    }
