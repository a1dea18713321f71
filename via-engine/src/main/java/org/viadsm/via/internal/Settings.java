package org.viadsm.via.internal;

import java.util.Map;

/**
 * Reads viadsm's settings from system properties and environment variables, for the contexts' {@code conclude()}
 * and nowhere else. Every setting has a system property ({@code viadsm.via.wait.spin.ns}, {@code viadsm.pageSize})
 * and an environment variable named after it by {@link #envName(String)} ({@code VIADSM_VIA_WAIT_SPIN_NS},
 * {@code VIADSM_PAGE_SIZE}); the property wins. A value that is set but malformed or out of range fails with an
 * {@link IllegalArgumentException} naming the property or variable it came from.
 * <p>
 * <b>Note:</b> not thread-safe; one reader per {@code conclude()}.
 */
public final class Settings
{
    private final Map<String, String> env;
    private final Map<?, ?> properties;

    /**
     * A reader over the given sources.
     *
     * @param env        environment variables, e.g. {@link System#getenv()}.
     * @param properties system properties, e.g. {@link System#getProperties()}.
     */
    public Settings(final Map<String, String> env, final Map<?, ?> properties)
    {
        this.env = env;
        this.properties = properties;
    }

    /**
     * A reader over this JVM's system properties and environment.
     *
     * @return the reader.
     */
    public static Settings fromSystem()
    {
        return new Settings(System.getenv(), System.getProperties());
    }

    /**
     * The environment variable of a property: upper case, with {@code _} for each dot and before each capital, so
     * {@code viadsm.via.wait.spin.ns} is {@code VIADSM_VIA_WAIT_SPIN_NS} and {@code viadsm.nodeId} is
     * {@code VIADSM_NODE_ID}.
     *
     * @param propertyName the property.
     * @return the variable.
     */
    public static String envName(final String propertyName)
    {
        final StringBuilder name = new StringBuilder(propertyName.length() + 4);
        for (int i = 0; i < propertyName.length(); i++)
        {
            final char c = propertyName.charAt(i);
            if ('.' == c)
            {
                name.append('_');
            }
            else if (Character.isUpperCase(c))
            {
                name.append('_').append(c);
            }
            else
            {
                name.append(Character.toUpperCase(c));
            }
        }
        return name.toString();
    }

    /**
     * Whether a setting is given, by its property or its variable.
     *
     * @param propertyName the property.
     * @return true if either is set and not blank.
     */
    public boolean isSet(final String propertyName)
    {
        return null != rawText(propertyName);
    }

    /**
     * A text setting.
     *
     * @param propertyName the property.
     * @param defaultValue its value when neither the property nor the variable is set; null makes it required.
     * @return the trimmed value.
     * @throws IllegalArgumentException naming the property and the variable if the setting is required and missing.
     */
    public String text(final String propertyName, final String defaultValue)
    {
        final String text = rawText(propertyName);
        if (null == text)
        {
            if (null == defaultValue)
            {
                throw new IllegalArgumentException("missing setting: environment variable " + envName(propertyName) +
                    " or system property " + propertyName);
            }
            return defaultValue;
        }
        return text.trim();
    }

    /**
     * A whole-number setting.
     *
     * @param propertyName the property.
     * @param defaultValue its value when it is not set.
     * @param min          the least value allowed.
     * @return the value.
     * @throws IllegalArgumentException naming the source if it is not a whole number or is below {@code min}.
     */
    public long longValue(final String propertyName, final long defaultValue, final long min)
    {
        final String text = rawText(propertyName);
        if (null == text)
        {
            return defaultValue;
        }
        final long value;
        try
        {
            value = Long.parseLong(text.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(source(propertyName) + " must be a whole number: '" + text + "'");
        }
        if (value < min)
        {
            throw new IllegalArgumentException(source(propertyName) + " must be at least " + min + ": " + value);
        }
        return value;
    }

    /**
     * A whole-number setting that fits an int.
     *
     * @param propertyName the property.
     * @param defaultValue its value when it is not set.
     * @param min          the least value allowed.
     * @return the value.
     * @throws IllegalArgumentException naming the source if it is not a whole number, is below {@code min} or
     *                                  exceeds {@link Integer#MAX_VALUE}.
     */
    public int intValue(final String propertyName, final int defaultValue, final int min)
    {
        final long value = longValue(propertyName, defaultValue, min);
        if (value > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException(
                source(propertyName) + " must be at most " + Integer.MAX_VALUE + ": " + value);
        }
        return (int)value;
    }

    /**
     * A true/false setting.
     *
     * @param propertyName the property.
     * @param defaultValue its value when it is not set.
     * @return the value.
     * @throws IllegalArgumentException naming the source if it is neither true nor false (in any case).
     */
    public boolean booleanValue(final String propertyName, final boolean defaultValue)
    {
        final String text = rawText(propertyName);
        if (null == text)
        {
            return defaultValue;
        }
        final String value = text.trim();
        if ("true".equalsIgnoreCase(value) || "false".equalsIgnoreCase(value))
        {
            return "true".equalsIgnoreCase(value);
        }
        throw new IllegalArgumentException(source(propertyName) + " must be true or false: '" + text + "'");
    }

    /**
     * Where a setting's value comes from, for messages.
     *
     * @param propertyName the property.
     * @return {@code system property <name>} if the property is set, else {@code environment variable <NAME>}.
     */
    public String source(final String propertyName)
    {
        return null != property(propertyName) ?
            "system property " + propertyName : "environment variable " + envName(propertyName);
    }

    private String rawText(final String propertyName)
    {
        final String property = property(propertyName);
        final String text = null != property ? property : env.get(envName(propertyName));
        return null == text || text.isBlank() ? null : text;
    }

    private String property(final String propertyName)
    {
        final Object value = properties.get(propertyName);
        return null == value || value.toString().isBlank() ? null : value.toString();
    }
}
