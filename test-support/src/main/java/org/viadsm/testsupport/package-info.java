/**
 * Test support shared by the modules' tests: {@link org.viadsm.testsupport.Providers}, the providers a multi-node
 * test runs on, {@link org.viadsm.testsupport.Await}, waits with a bound that fail naming what never happened, and
 * {@link org.viadsm.testsupport.Interrupter} for the interrupt paths of the waits. The in-memory cluster of protocol
 * nodes is in {@link org.viadsm.testsupport.protocol}.
 */
package org.viadsm.testsupport;
