/**
 * Home assignment: the block, cyclic, first-touch and explicit policies that give each page of a shared array its
 * home node.
 */
package org.viadsm.consistency.home;
