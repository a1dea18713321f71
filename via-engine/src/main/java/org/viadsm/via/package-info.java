/**
 * The VIA API: {@link org.viadsm.via.Nic}, {@link org.viadsm.via.Vi}, {@link org.viadsm.via.CompletionQueue},
 * reliability levels, connection management and the name service, after the VIPL calls of VIA 1.0, in Java idioms.
 */
package org.viadsm.via;
