package org.viadsm.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * JVM options of the child JVMs a benchmark starts (peers, nodes): the given ones, then this JVM's
 * {@code viadsm.*} and {@code agrona.*} system properties, so the children wait and check the way this JVM does.
 */
public final class ChildJvm
{
    private ChildJvm()
    {
    }

    /**
     * Options for a child JVM.
     *
     * @param options options placed first, e.g. heap sizes.
     * @return those options followed by one {@code -Dname=value} per forwarded property.
     */
    public static List<String> options(final String... options)
    {
        final List<String> all = new ArrayList<>(Arrays.asList(options));
        for (final String name : System.getProperties().stringPropertyNames())
        {
            if (name.startsWith("viadsm.") || name.startsWith("agrona."))
            {
                all.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        return all;
    }
}
