/**
 * Intervals: the release and acquire halves of every synchronization, over the node's vector clock, its write-notice
 * log and the page actions.
 */
package org.viadsm.consistency.interval;
