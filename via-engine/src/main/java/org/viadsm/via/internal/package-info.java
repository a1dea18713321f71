/**
 * Internal-use-only utilities shared across viadsm's modules; not API, and may change without notice.
 */
package org.viadsm.via.internal;
