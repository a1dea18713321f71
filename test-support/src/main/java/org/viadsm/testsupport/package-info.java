/**
 * Test support shared by the modules' tests: {@link org.viadsm.testsupport.Providers}, the providers a multi-node
 * test runs on, and {@link org.viadsm.testsupport.Await}, waits with a bound that fail naming what never happened.
 */
package org.viadsm.testsupport;
