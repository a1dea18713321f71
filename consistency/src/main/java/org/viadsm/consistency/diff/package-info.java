/**
 * Twins and diffs: the copies of pages taken at their first write in an interval, the element-granular runs that
 * changed, and encoded diffs that can be applied and merged.
 */
package org.viadsm.consistency.diff;
