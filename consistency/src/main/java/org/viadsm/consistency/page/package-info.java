/**
 * Pages: states, page tables, the node's shared space and the coherence actions on pages (faults, twins, diffs
 * sent home, invalidation).
 */
package org.viadsm.consistency.page;
