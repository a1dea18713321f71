/**
 * Home-based lazy release consistency, free of I/O: the types the protocol's parts share (vector clocks, counters,
 * the control region's layout, the settings and the protocol's exception). The parts live in the subpackages; the
 * node composing them in {@code node}.
 */
package org.viadsm.consistency;
