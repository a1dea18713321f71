package org.viadsm.via.internal;

import java.util.HashSet;
import java.util.Set;

import org.agrona.BitUtil;

/**
 * What a context ({@code NicContext}, {@code DsmContext}) and its settings groups share while they are filled in
 * and concluded: which settings were given to a setter (those win over properties and variables), whether the
 * context is concluded, and how a setting is read and checked so that a bad value names the setter, property or
 * variable it came from.
 * <p>
 * <b>Note:</b> {@link #set(String)} and {@link #conclude()} are thread-safe; the reads run under the concluding
 * context's lock.
 */
public final class SettingResolver
{
    private final String owner;
    private final Set<String> explicit = new HashSet<>();
    private boolean concluded;

    /**
     * A resolver with no setting given yet.
     *
     * @param owner the context's name, for the error of a change after conclude.
     */
    public SettingResolver(final String owner)
    {
        this.owner = owner;
    }

    /**
     * Records that a setter gave a setting, which from now on wins over its property and variable.
     *
     * @param propertyName the setting's property.
     * @throws IllegalStateException if the context is concluded.
     */
    public synchronized void set(final String propertyName)
    {
        if (concluded)
        {
            throw new IllegalStateException(owner + " is concluded and can no longer change: " + propertyName);
        }
        explicit.add(propertyName);
    }

    /**
     * Whether a setter gave a setting.
     *
     * @param propertyName the setting's property.
     * @return true if given to a setter.
     */
    public synchronized boolean isExplicit(final String propertyName)
    {
        return explicit.contains(propertyName);
    }

    /**
     * Whether the context is concluded.
     *
     * @return true once concluded.
     */
    public synchronized boolean isConcluded()
    {
        return concluded;
    }

    /**
     * Freezes the context: every later {@link #set(String)} fails.
     */
    public synchronized void conclude()
    {
        concluded = true;
    }

    /**
     * A whole-number setting: the setter's value if given, else the property's or variable's, else {@code value}.
     *
     * @param settings     the properties and variables.
     * @param setter       the setter's name, for messages.
     * @param propertyName the setting's property.
     * @param value        the setter's value or the default.
     * @param min          the least value allowed.
     * @return the value.
     * @throws IllegalArgumentException naming the setting's source if the value is malformed or below {@code min}.
     */
    public long longSetting(
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

    /**
     * A whole-number setting in a range; see {@link #longSetting(Settings, String, String, long, long)}.
     *
     * @param settings     the properties and variables.
     * @param setter       the setter's name, for messages.
     * @param propertyName the setting's property.
     * @param value        the setter's value or the default.
     * @param min          the least value allowed.
     * @param max          the greatest value allowed.
     * @return the value.
     * @throws IllegalArgumentException naming the setting's source if the value is malformed or out of range.
     */
    public int intSetting(
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

    /**
     * A power of two in a range; see {@link #intSetting(Settings, String, String, int, int, int)}.
     *
     * @param settings     the properties and variables.
     * @param setter       the setter's name, for messages.
     * @param propertyName the setting's property.
     * @param value        the setter's value or the default.
     * @param min          the least value allowed.
     * @param max          the greatest value allowed.
     * @return the value.
     * @throws IllegalArgumentException naming the setting's source if the value is malformed, out of range or not
     *                                  a power of two.
     */
    public int powerOfTwoSetting(
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

    /**
     * Where a setting's value comes from, for messages.
     *
     * @param settings     the properties and variables.
     * @param setter       the setter's name.
     * @param propertyName the setting's property.
     * @return {@code setter (property)} for a value given to the setter, else the property or variable.
     */
    public String source(final Settings settings, final String setter, final String propertyName)
    {
        return isExplicit(propertyName) ? setter + " (" + propertyName + ")" : settings.source(propertyName);
    }
}
