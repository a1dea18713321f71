/**
 * How nodes describe themselves to each other off the data path: the join handshake, the allocation agreement and
 * the rendezvous of a job, as Java records serialized with Kryo. Internal to viadsm; not an API.
 */
package org.viadsm.dsm.wire;
