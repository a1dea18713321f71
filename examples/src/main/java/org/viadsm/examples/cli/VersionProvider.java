package org.viadsm.examples.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

import picocli.CommandLine;

/**
 * Reports the version the build stamped into {@code version.properties}.
 */
final class VersionProvider implements CommandLine.IVersionProvider
{
    @Override
    public String[] getVersion()
    {
        final Properties properties = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties"))
        {
            if (null != in)
            {
                properties.load(in);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return new String[] {
            "viadsm " + properties.getProperty("version", "unknown"),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"
        };
    }
}
