/**
 * The cluster handle ({@link org.viadsm.dsm.Dsm}), shared arrays, locks, barriers, semaphores and statistics.
 */
package org.viadsm.dsm;
