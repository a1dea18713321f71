/**
 * The {@code viadsm bench} command and its registration with the {@code viadsm} command line. It sits above the
 * benchmark packages, which share the harness of {@link org.viadsm.bench}, so no package cycle joins them.
 */
package org.viadsm.bench.cli;
