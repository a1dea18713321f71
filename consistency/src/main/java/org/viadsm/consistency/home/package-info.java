/**
 * Home assignment: block, cyclic, first-touch and explicit policies, and the {@link
 * org.viadsm.consistency.home.Placement} users choose them with.
 */
package org.viadsm.consistency.home;
