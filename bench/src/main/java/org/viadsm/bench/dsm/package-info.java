/**
 * {@code viadsm bench dsm}: the shared memory's own operations (read miss, write and release, remote lock, barrier,
 * array sweeps) against raw baselines measured between the same node processes.
 */
package org.viadsm.bench.dsm;
