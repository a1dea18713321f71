/**
 * A node of the protocol: {@link org.viadsm.consistency.node.HlrcNode} composes the pages, intervals, write
 * notices and synchronization protocols of one node over its port. Nothing else in the module depends on it.
 */
package org.viadsm.consistency.node;
