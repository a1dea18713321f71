/**
 * JMH micro-benchmarks, run with {@code viadsm bench jmh}: each class pairs a viadsm operation with a plain baseline
 * measured in the same fork.
 */
package org.viadsm.bench.jmh;
