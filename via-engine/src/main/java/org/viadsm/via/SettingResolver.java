package org.viadsm.via;

import java.util.HashSet;
import java.util.Set;

import org.agrona.BitUtil;
import org.viadsm.via.internal.Settings;

/**
 * What a {@link NicContext} and its settings groups share while they are filled in and concluded: which settings
 * were given to a setter (those win over properties and variables), whether the context is concluded, and how a
 * setting is read and checked so that a bad value names the setter, property or variable it came from.
 * <p>
 * <b>Note:</b> {@link #set(String)} and {@link #conclude()} are thread-safe; the reads run under the concluding
 * context's lock.
 */
final class SettingResolver
{
    private final Set<String> explicit = new HashSet<>();
    private boolean concluded;

    synchronized void set(final String propertyName)
    {
        if (concluded)
        {
            throw new IllegalStateException("NicContext is concluded and can no longer change: " + propertyName);
        }
        explicit.add(propertyName);
    }

    synchronized boolean isExplicit(final String propertyName)
    {
        return explicit.contains(propertyName);
    }

    synchronized boolean isConcluded()
    {
        return concluded;
    }

    synchronized void conclude()
    {
        concluded = true;
    }

    long longSetting(
        final Settings settings, final String setter, final String propertyName, final long value, final long min)
    {
        if (!isExplicit(propertyName))
        {
            return settings.longValue(propertyName, value, min);
        }
        if (value < min)
        {
            throw new IllegalArgumentException(source(settings, setter, propertyName) + " must be at least " + min +
                ": " + value);
        }
        return value;
    }

    int intSetting(
        final Settings settings,
        final String setter,
        final String propertyName,
        final int value,
        final int min,
        final int max)
    {
        final long read = isExplicit(propertyName) ?
            value : settings.longValue(propertyName, value, Long.MIN_VALUE);
        if (read < min || read > max)
        {
            final String range = Integer.MAX_VALUE != max ? "from " + min + " to " + max :
                read < min ? "at least " + min : "at most " + max;
            throw new IllegalArgumentException(
                source(settings, setter, propertyName) + " must be " + range + ": " + read);
        }
        return (int)read;
    }

    int powerOfTwoSetting(
        final Settings settings,
        final String setter,
        final String propertyName,
        final int value,
        final int min,
        final int max)
    {
        final int read = intSetting(settings, setter, propertyName, value, min, max);
        if (!BitUtil.isPowerOfTwo(read))
        {
            throw new IllegalArgumentException(
                source(settings, setter, propertyName) + " must be a power of two: " + read);
        }
        return read;
    }

    String source(final Settings settings, final String setter, final String propertyName)
    {
        return isExplicit(propertyName) ? setter + " (" + propertyName + ")" : settings.source(propertyName);
    }
}
