/**
 * Home-based lazy release consistency, free of I/O: vector clocks, intervals and the protocol state machines.
 */
package org.viadsm.consistency;
