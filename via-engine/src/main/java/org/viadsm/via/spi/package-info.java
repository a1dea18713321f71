/**
 * The provider SPI: NIC implementations found by address scheme with {@link java.util.ServiceLoader}.
 */
package org.viadsm.via.spi;
