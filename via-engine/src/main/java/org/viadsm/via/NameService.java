package org.viadsm.via;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Maps node names to provider addresses and back, after VIPL's {@code VipNSGetHostByName} and
 * {@code VipNSGetHostByAddr}. Immutable; built from a map, from {@code name=address} pairs or from a properties
 * file.
 */
public final class NameService
{
    private final Map<String, String> byName;
    private final Map<String, String> byAddress;

    private NameService(final Map<String, String> entries)
    {
        final Map<String, String> names = new LinkedHashMap<>();
        final Map<String, String> addresses = new LinkedHashMap<>();
        for (final Map.Entry<String, String> e : entries.entrySet())
        {
            final String name = e.getKey().trim();
            final String address = e.getValue().trim();
            if (name.isEmpty() || address.isEmpty() || address.indexOf(':') <= 0)
            {
                throw new IllegalArgumentException(
                    "name service entry must be name=scheme:address, got '" + e.getKey() + "=" + e.getValue() + "'");
            }
            final String previous = addresses.put(address, name);
            if (null != previous)
            {
                throw new IllegalArgumentException(
                    "address " + address + " is given to both '" + previous + "' and '" + name + "'");
            }
            names.put(name, address);
        }
        this.byName = Collections.unmodifiableMap(names);
        this.byAddress = Collections.unmodifiableMap(addresses);
    }

    /**
     * A name service over the given entries, in their order.
     *
     * @param entries name to address.
     * @return the name service.
     * @throws IllegalArgumentException if an entry is malformed or two names share an address.
     */
    public static NameService of(final Map<String, String> entries)
    {
        return new NameService(entries);
    }

    /**
     * Parses comma- or newline-separated {@code name=address} pairs, e.g.
     * {@code node0=shm:node0,node1=shm:node1}.
     *
     * @param pairs the pairs.
     * @return the name service.
     * @throws IllegalArgumentException naming the malformed pair.
     */
    public static NameService parse(final String pairs)
    {
        final Map<String, String> entries = new LinkedHashMap<>();
        for (final String pair : pairs.split("[,\\n]"))
        {
            final String trimmed = pair.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("#"))
            {
                continue;
            }
            final int eq = trimmed.indexOf('=');
            if (eq <= 0)
            {
                throw new IllegalArgumentException("name service entry must be name=address, got '" + trimmed + "'");
            }
            entries.put(trimmed.substring(0, eq), trimmed.substring(eq + 1));
        }
        return new NameService(entries);
    }

    /**
     * Reads a properties file of {@code name=address} lines.
     *
     * @param file the file.
     * @return the name service.
     * @throws ViaException with {@link ViaError#ERROR_NAMESERVICE} if the file cannot be read.
     */
    public static NameService load(final Path file)
    {
        final Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            properties.load(reader);
        }
        catch (final IOException ex)
        {
            throw new ViaException(ViaError.ERROR_NAMESERVICE, "cannot read name service file " + file, ex);
        }
        final Map<String, String> entries = new java.util.TreeMap<>();
        for (final String name : properties.stringPropertyNames())
        {
            entries.put(name, properties.getProperty(name));
        }
        return new NameService(entries);
    }

    /**
     * The address of a name.
     *
     * @param name a node name.
     * @return its provider address.
     * @throws ViaException with {@link ViaError#ERROR_NAMESERVICE} if the name is unknown.
     */
    public String lookup(final String name)
    {
        final String address = byName.get(name);
        if (null == address)
        {
            throw new ViaException(ViaError.ERROR_NAMESERVICE, "unknown node name '" + name + "'; known: " +
                byName.keySet());
        }
        return address;
    }

    /**
     * The name of an address.
     *
     * @param address a provider address.
     * @return its node name.
     * @throws ViaException with {@link ViaError#ERROR_NAMESERVICE} if the address is unknown.
     */
    public String reverseLookup(final String address)
    {
        final String name = byAddress.get(address);
        if (null == name)
        {
            throw new ViaException(ViaError.ERROR_NAMESERVICE, "unknown address '" + address + "'");
        }
        return name;
    }

    /**
     * Every entry, name to address, in order.
     *
     * @return an unmodifiable map.
     */
    public Map<String, String> entries()
    {
        return byName;
    }
}
