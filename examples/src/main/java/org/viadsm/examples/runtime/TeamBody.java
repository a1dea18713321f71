package org.viadsm.examples.runtime;

/**
 * What every member of a {@link Team} runs.
 */
@FunctionalInterface
public interface TeamBody
{
    /**
     * Runs as one member.
     *
     * @param team this member's view of the team.
     * @throws Exception if the member fails; the run then fails, naming the member.
     */
    void run(Team team) throws Exception;
}
