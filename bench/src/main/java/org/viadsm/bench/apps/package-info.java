/**
 * {@code viadsm bench apps}: the application suite run sequentially, on Java threads and on DSM nodes, each run in
 * fresh JVMs and verified, with speedups and the DSM's statistics.
 */
package org.viadsm.bench.apps;
