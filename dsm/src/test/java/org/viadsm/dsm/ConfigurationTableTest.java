package org.viadsm.dsm;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.viadsm.via.NicConfiguration;
import org.viadsm.via.internal.Settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's configuration table lists every setting the contexts read, with its environment variable, and no
 * other {@code viadsm.*} property.
 */
class ConfigurationTableTest
{
    @Test
    void shouldListEverySettingWithItsVariableInTheReadme() throws Exception
    {
        final List<String> rows = tableRows();
        final List<String> names = new ArrayList<>(propertyNames(NicConfiguration.class));
        names.addAll(propertyNames(DsmContext.class));
        for (final String name : names)
        {
            assertTrue(rows.stream().anyMatch(row -> row.startsWith("| `" + name + "` | `" +
                Settings.envName(name) + "` |")), "README configuration table lacks " + name);
        }
        assertEquals(names.size(), rows.stream().filter(row -> row.startsWith("| `viadsm.")).count(),
            "README configuration table rows: " + rows);
    }

    private static List<String> tableRows() throws IOException
    {
        final List<String> lines = Files.readAllLines(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        final int start = lines.indexOf("## Configuration");
        final List<String> rows = new ArrayList<>();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++)
        {
            if (lines.get(i).startsWith("|"))
            {
                rows.add(lines.get(i));
            }
        }
        return rows;
    }

    private static List<String> propertyNames(final Class<?> type) throws IllegalAccessException
    {
        final List<String> names = new ArrayList<>();
        for (final Field field : type.getFields())
        {
            if (Modifier.isStatic(field.getModifiers()) && field.getName().endsWith("_PROP_NAME"))
            {
                names.add((String)field.get(null));
            }
        }
        return names;
    }
}
