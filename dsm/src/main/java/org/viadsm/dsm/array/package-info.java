/**
 * Typed arrays that read and write like ordinary arrays: the {@code *Array} interfaces and their plain
 * implementations for baselines (the shared implementations are {@code org.viadsm.dsm.Shared*Array}). The five
 * element types are generated at build time from the templates in {@code dsm/src/main/templates}.
 */
package org.viadsm.dsm.array;
