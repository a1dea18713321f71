/**
 * Memory registration: protection tags, registration attributes, registered regions and memory handles.
 */
package org.viadsm.via.memory;
