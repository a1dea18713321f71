/**
 * How the nodes of a job started by a launcher ({@code mpirun}, {@code srun}, MPICH's {@code mpiexec}) find each
 * other: {@link org.viadsm.dsm.rendezvous.Job} reads the rank and size the launcher gives every process, and a
 * {@link org.viadsm.dsm.rendezvous.Rendezvous} lets the ranks exchange their NIC addresses (and, at the end, their
 * statistics) through a directory on a file system they share, or through rank 0 listening on a TCP port.
 */
package org.viadsm.dsm.rendezvous;
