/**
 * Benchmarks: {@code viadsm bench via}, {@code viadsm bench dsm}, the application-suite harness and JMH.
 */
package org.viadsm.bench;
