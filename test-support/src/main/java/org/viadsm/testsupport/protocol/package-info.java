/**
 * The protocol without a NIC: {@link org.viadsm.testsupport.protocol.InMemoryCluster}, N protocol nodes of one JVM
 * over an in-memory port (writes landing at once or late, a hook before each notification, exact counters), and
 * {@link org.viadsm.testsupport.protocol.Homes}, how its arrays' pages get homes. For tests of the consistency
 * protocol and of what is built on it.
 */
package org.viadsm.testsupport.protocol;
