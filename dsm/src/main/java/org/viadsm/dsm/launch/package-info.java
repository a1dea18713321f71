/**
 * Starting clusters: nodes as threads of one JVM ({@link org.viadsm.dsm.launch.LocalCluster}) and as separate
 * processes on one host.
 */
package org.viadsm.dsm.launch;
