/**
 * Synchronization protocols over one-sided operations: MCS queue locks with vector-clock hand-off, dissemination
 * barriers with notice-log garbage collection, counting semaphores, and the bounded waits behind them.
 */
package org.viadsm.consistency.sync;
