/**
 * Write notices: each node's log of the intervals it closed and the pages each wrote, and the one-sided reader
 * that fetches exactly the notices an acquirer lacks.
 */
package org.viadsm.consistency.notice;
