package org.viadsm.dsm;

import org.viadsm.consistency.ProtocolConfig;
import org.viadsm.via.internal.SettingResolver;
import org.viadsm.via.internal.Settings;

import static org.viadsm.dsm.DsmContext.MAX_LOCKS_PROP_NAME;
import static org.viadsm.dsm.DsmContext.PAGE_SIZE_PROP_NAME;
import static org.viadsm.dsm.DsmContext.PREFETCH_PAGES_PROP_NAME;

/**
 * The protocol's sizes of a {@link DsmContext}, concluded with it: the values its setters gave, else (for a context
 * from the environment) its properties and variables, checked by {@link ProtocolConfig#conclude()}. A bad value is
 * reported as the setter and property, or as the property or variable, it came from.
 */
final class ProtocolSettings
{
    /** The settings that have a property, each named as its setter after {@code viadsm.}. */
    private static final String[] PROPERTY_NAMES =
    {
        PAGE_SIZE_PROP_NAME, MAX_LOCKS_PROP_NAME, PREFETCH_PAGES_PROP_NAME
    };

    private final SettingResolver resolver;
    private final ProtocolConfig config = new ProtocolConfig();

    ProtocolSettings(final SettingResolver resolver)
    {
        this.resolver = resolver;
    }

    ProtocolConfig config()
    {
        return config;
    }

    /**
     * Reads what no setter gave from {@code settings}, then validates every value and freezes the configuration.
     *
     * @throws IllegalArgumentException naming the first bad value's setter and property, or property or variable.
     */
    void conclude(final Settings settings, final int nodeCount)
    {
        if (!resolver.isExplicit(PAGE_SIZE_PROP_NAME))
        {
            config.pageSize(settings.intValue(PAGE_SIZE_PROP_NAME, config.pageSize(), Integer.MIN_VALUE));
        }
        if (!resolver.isExplicit(MAX_LOCKS_PROP_NAME))
        {
            config.maxLocks(settings.intValue(MAX_LOCKS_PROP_NAME, config.maxLocks(), Integer.MIN_VALUE));
        }
        if (!resolver.isExplicit(PREFETCH_PAGES_PROP_NAME))
        {
            config.prefetchPages(
                settings.intValue(PREFETCH_PAGES_PROP_NAME, config.prefetchPages(), Integer.MIN_VALUE));
        }
        try
        {
            config.nodeCount(nodeCount).conclude();
        }
        catch (final IllegalArgumentException ex)
        {
            final String message = ex.getMessage();
            for (final String name : PROPERTY_NAMES)
            {
                final String setter = name.substring("viadsm.".length());
                if (message.startsWith(setter + " ") && (resolver.isExplicit(name) || settings.isSet(name)))
                {
                    throw new IllegalArgumentException(
                        resolver.source(settings, setter, name) + message.substring(setter.length()), ex);
                }
            }
            throw ex;
        }
    }
}
