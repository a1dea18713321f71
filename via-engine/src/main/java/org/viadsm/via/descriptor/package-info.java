/**
 * Descriptors: the layout of control, address, atomic and data segments, the reusable
 * {@link org.viadsm.via.descriptor.Descriptor} flyweight and the status bits a completed descriptor carries.
 */
package org.viadsm.via.descriptor;
