package org.viadsm.dsm;

/**
 * Element types of shared arrays.
 */
enum ElementType
{
    DOUBLE("doubles", 8),
    LONG("longs", 8),
    INT("ints", 4),
    FLOAT("floats", 4),
    BYTE("bytes", 1);

    private final String label;
    private final int size;

    ElementType(final String label, final int size)
    {
        this.label = label;
        this.size = size;
    }

    String label()
    {
        return label;
    }

    int size()
    {
        return size;
    }
}
