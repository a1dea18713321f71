/**
 * The {@code viadsm} command line (picocli).
 */
package org.viadsm.examples.cli;
