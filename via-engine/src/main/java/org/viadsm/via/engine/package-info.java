/**
 * The provider toolkit: the machinery every emulated NIC shares, not user API.
 * <p>
 * A NIC's target-side state (header, registration table, VI records with their receive rings, completion queue
 * rings, the asynchronous-error ring and the connection-request ring) lives in one {@link
 * org.viadsm.via.engine.NicArea}, laid out by the {@code *Layout} classes, so that an initiator that can reach the
 * area (a peer thread in the same JVM, a peer process mapping the same file, or a provider's engine thread acting
 * for a remote initiator) performs Send, RDMA and atomics on it with the same code. Providers extend {@link
 * org.viadsm.via.engine.EngineNic} and {@link org.viadsm.via.engine.PeerNic}.
 * <p>
 * Shared words follow the publish pattern: a writer fills a record, then stores its status or length word with
 * release semantics; a reader loads that word with acquire semantics before reading the record.
 */
package org.viadsm.via.engine;
