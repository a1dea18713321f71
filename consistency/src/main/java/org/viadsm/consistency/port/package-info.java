/**
 * The protocol's view of the network: {@link org.viadsm.consistency.port.ProtocolPort}, implemented over VIA by
 * the dsm module and in memory by tests, as ArgoDSM's backends are.
 */
package org.viadsm.consistency.port;
