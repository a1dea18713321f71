/**
 * Typed arrays that read and write like ordinary arrays: the {@code *Array} interfaces, their plain
 * implementations for baselines, and the shared arrays of a DSM cluster.
 */
package org.viadsm.dsm.array;
