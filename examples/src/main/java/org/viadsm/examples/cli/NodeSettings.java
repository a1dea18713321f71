package org.viadsm.examples.cli;

/**
 * Protocol sizes the launcher gives every node: enough lock and semaphore ids for the SPLASH programs (BARNES
 * locks cells, WATER molecules).
 */
final class NodeSettings
{
    static final int MAX_LOCKS = 4096;
    static final int MAX_SEMAPHORES = 1024;

    private NodeSettings()
    {
    }
}
