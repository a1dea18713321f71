/**
 * The {@link org.viadsm.examples.catalog.AppCatalog} of the applications by name, which {@code viadsm run},
 * {@code viadsm list} and the benchmarks look applications up in. It sits above the applications, which know only
 * {@link org.viadsm.examples.runtime}, so no package cycle joins them.
 */
package org.viadsm.examples.catalog;
