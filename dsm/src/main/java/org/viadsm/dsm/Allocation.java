package org.viadsm.dsm;

import java.nio.charset.StandardCharsets;

import org.viadsm.consistency.page.PageTable;

/**
 * One live allocation of a node: what every node agreed on (its number among the allocations, type, name, length,
 * placement fingerprint) and this node's page table and fault path for it.
 */
final class Allocation
{
    private final long number;
    private final ElementType type;
    private final String name;
    private final byte[] nameBytes;
    private final int length;
    private final long placement;
    private PageTable table;
    private PageFaults faults;

    Allocation(final long number, final ElementType type, final String name, final int length, final long placement)
    {
        this.number = number;
        this.type = type;
        this.name = name;
        this.nameBytes = name.getBytes(StandardCharsets.UTF_8);
        this.length = length;
        this.placement = placement;
    }

    void attach(final PageTable table, final PageFaults faults)
    {
        this.table = table;
        this.faults = faults;
    }

    long number()
    {
        return number;
    }

    ElementType type()
    {
        return type;
    }

    String name()
    {
        return name;
    }

    byte[] nameBytes()
    {
        return nameBytes;
    }

    int length()
    {
        return length;
    }

    long placement()
    {
        return placement;
    }

    PageTable table()
    {
        return table;
    }

    PageFaults faults()
    {
        return faults;
    }
}
