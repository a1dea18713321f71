package org.viadsm.examples.catalog;

import org.junit.jupiter.api.Test;
import org.viadsm.examples.runtime.App;
import org.viadsm.examples.runtime.AppHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AppCatalogTest
{
    @Test
    void shouldListTheKernelsWithDefaultArgumentsTheyAccept()
    {
        for (final String name : new String[] {"fft", "lu", "radix"})
        {
            final AppCatalog.Entry entry = AppCatalog.find(name);
            assertEquals(name, entry.name());
            assertTrue(entry.summary().startsWith("SPLASH-2"), entry.summary());
            final App app = AppHarness.parse(entry::newInstance, entry.defaultArgs().split(" "));
            app.validate(4);
        }
    }

    @Test
    void findRejectsAnUnknownName()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> AppCatalog.find("x"));
        assertTrue(ex.getMessage().contains("'x'"), ex.getMessage());
    }
}
