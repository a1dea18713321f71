package org.viadsm.via.engine;

/**
 * Padding before the fields of a subclass: two cache lines (against adjacent-line prefetching), so that a field
 * another thread reads on every operation shares no line with the end of the object before it. The subclass pads
 * after its fields the same way.
 */
abstract class LinePadding
{
    long p01;
    long p02;
    long p03;
    long p04;
    long p05;
    long p06;
    long p07;
    long p08;
    long p09;
    long p10;
    long p11;
    long p12;
    long p13;
    long p14;
    long p15;
}
