/**
 * The {@code shm} provider: NICs in processes on one host, over shared memory. Address {@code shm:<name>}.
 * <p>
 * Files, in {@code /dev/shm} (or the directory of system property {@code viadsm.shm.dir}): the NIC's shared area
 * is {@code viadsm-<name>.nic}, whose header names the owner process; each {@code allocateMemory} maps a new sparse
 * file {@code viadsm-<name>-<pid>-<id>.mem}. Peers map them lazily and cache the mapping of each registration, so
 * an operation costs no system call after the first on a region. {@code registerMemory} takes only memory from
 * {@code allocateMemory}, which peers can map. Closing the NIC deletes its files and unmaps everything; opening a
 * NIC deletes the files left behind by dead processes; opening an address whose owner is alive fails. NIC files are
 * judged stale, deleted and linked under the user's lock file {@code viadsm.<user>.lock} of the directory, which is
 * never deleted.
 * <p>
 * Threading model: progress is driven by the caller and there is no engine thread. A post executes its operation
 * on the posting thread, straight on the target's mapped area and memory, and completes it at both ends before
 * returning. A process cannot wake a thread of another, so waits spin briefly, then poll with exponential park
 * backoff up to {@code viadsm.via.wait.park.max.ns} (200 us by default: the latency of a completion to a parked
 * waiter), and calls check every {@code viadsm.via.failure.check.interval.ns} that the peers' processes are alive
 * and their NICs open.
 */
package org.viadsm.via.provider.shm;
