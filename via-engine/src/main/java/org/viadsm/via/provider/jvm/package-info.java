/**
 * The {@code jvm} provider: NICs inside one JVM, with nodes as threads. Address {@code jvm:<name>}.
 * <p>
 * Threading model: progress is driven by the caller and there is no engine thread. A post executes its operation
 * on the posting thread, straight on the target NIC's shared area and registered memory (found through an in-JVM
 * registry of open NICs), and completes it at both ends before returning. A thread parked in a wait is unparked by
 * the completer, which pays one volatile load when nobody is parked.
 * <p>
 * Memory: a NIC's area and the memory from {@code allocateMemory} are sparse mappings of files deleted at once;
 * {@code registerMemory} takes any direct buffer. Because threads of other NICs may still hold references to this
 * memory, closing a NIC drops its references and leaves the unmapping to the garbage collector.
 */
package org.viadsm.via.provider.jvm;
