/**
 * {@code viadsm bench via}: the emulated NIC's latency and bandwidth against raw baselines (Agrona rings, memory
 * copies, NIO sockets) measured in the same run, with a child JVM as the peer process.
 */
package org.viadsm.bench.via;
