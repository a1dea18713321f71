/**
 * What the applications run on: a {@link org.viadsm.examples.runtime.Team} of members (threads over plain arrays,
 * or DSM nodes over shared arrays) and the {@link org.viadsm.examples.runtime.App} base class.
 */
package org.viadsm.examples.runtime;
