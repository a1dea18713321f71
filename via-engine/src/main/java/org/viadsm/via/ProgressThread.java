package org.viadsm.via;

import java.util.Locale;

/**
 * When a NIC of a provider whose peers' one-sided operations need the target's help runs a thread of its own that
 * makes progress ({@code ucx}: over TCP, UCX performs the peers' puts, gets and atomics in software, in the target
 * process). Without one, such an operation waits until a thread of the target calls into the NIC (a wait sleeping on
 * the NIC wakes for it); with one, it costs the target a thread that wakes for every operation.
 */
public enum ProgressThread
{
    /** Only where the transport needs it: a link that may talk TCP (the default). */
    AUTO,
    /** From the first connection on, whatever the transport. */
    ALWAYS,
    /** Never: the application's own calls and waits make progress. */
    NEVER;

    /**
     * Parses a setting's value, in any case.
     *
     * @param text {@code auto}, {@code always} or {@code never}.
     * @return the constant.
     * @throws IllegalArgumentException if the text names none.
     */
    public static ProgressThread parse(final String text)
    {
        for (final ProgressThread value : values())
        {
            if (value.name().equalsIgnoreCase(text.trim()))
            {
                return value;
            }
        }
        throw new IllegalArgumentException("must be auto, always or never: '" + text + "'");
    }

    /**
     * The setting's value as written in properties and variables.
     *
     * @return the name in lower case.
     */
    public String text()
    {
        return name().toLowerCase(Locale.ROOT);
    }
}
