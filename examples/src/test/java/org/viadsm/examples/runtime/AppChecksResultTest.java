package org.viadsm.examples.runtime;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.examples.catalog.AppCatalog;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AppChecksResultTest
{
    @ParameterizedTest(name = "{0} {1}: checks {2}")
    @CsvSource(delimiter = '|', value = {
        "fft            | -m10            | false",
        "fft            | -m10 -t         | true",
        "lu             | -n64 -b16       | false",
        "lu             | -n64 -b16 -t    | true",
        "radix          | -n1024          | false",
        "radix          | -n1024 -t       | true",
        "sor            | -m64 -n64       | false",
        "sor            | -m64 -n64 -t    | true"})
    void shouldCheckTheResultOnlyWithItsOption(final String app, final String args, final boolean checks)
    {
        final App instance = parse(app, args.split(" "));
        assertEquals(checks, instance.checksResult());
        assertEquals("-t", instance.checkOption());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"ocean, -o", "ocean, -n66", "barnes, --no-optional-locks", "tsp, -n12", "water-nsquared, deck",
        "water-spatial, deck"})
    void shouldAlwaysCheckTheResultOfAnApplicationWithoutACheckOption(final String app, final String args)
    {
        final App instance = parse(app, args);
        assertTrue(instance.checksResult());
        assertNull(instance.checkOption());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void shouldCheckTheResultWithItsCheckOptionOrAlways(final String app)
    {
        final App defaults = parse(app);
        if (!defaults.checksResult())
        {
            assertTrue(parse(app, defaults.checkOption()).checksResult(), app + " with " + defaults.checkOption());
        }
        else
        {
            assertNull(defaults.checkOption(), app + " checks without options, so it names none");
        }
    }

    @Test
    void shouldRefuseToSayWhetherAnUnparsedApplicationChecksItsResult()
    {
        final App unparsed = AppCatalog.find("fft").newInstance();
        assertEquals("FftApp's options were not parsed",
            assertThrows(IllegalStateException.class, unparsed::checksResult).getMessage());
        assertTrue(AppCatalog.find("ocean").newInstance().checksResult());
    }

    static Stream<String> names()
    {
        return AppCatalog.all().stream().map(AppCatalog.Entry::name);
    }

    private static App parse(final String app, final String... args)
    {
        final App instance = AppCatalog.find(app).newInstance();
        new CommandLine(instance).parseArgs(args);
        return instance;
    }
}
