package org.viadsm.via.internal;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Settings read from properties and environment variables: read when set, defaults when not, the property over the
 * variable, and a clear error naming the source when malformed.
 */
class SettingsTest
{
    private static final String NAME = "viadsm.test.knob";

    @Test
    void shouldNameTheVariableAfterTheProperty()
    {
        assertEquals("VIADSM_VIA_WAIT_SPIN_NS", Settings.envName("viadsm.via.wait.spin.ns"));
        assertEquals("VIADSM_NODE_ID", Settings.envName("viadsm.nodeId"));
        assertEquals("VIADSM_SYNC_TIMEOUT_MS", Settings.envName("viadsm.syncTimeoutMs"));
    }

    @Test
    void shouldReadAWholeNumberOrTheDefault()
    {
        assertEquals(7L, new Settings(Map.of(), Map.of()).longValue(NAME, 7L, 0L));
        final Settings settings = new Settings(Map.of(), Map.of(NAME, " 42 "));
        assertEquals(42L, settings.longValue(NAME, 7L, 0L));
        assertEquals(42, settings.intValue(NAME, 7, 0));
    }

    @Test
    void shouldPreferThePropertyToTheVariable()
    {
        assertEquals(5L, new Settings(Map.of("VIADSM_TEST_KNOB", "5"), Map.of()).longValue(NAME, 7L, 0L));
        assertEquals(6L, new Settings(Map.of("VIADSM_TEST_KNOB", "5"), Map.of(NAME, "6")).longValue(NAME, 7L, 0L));
        assertEquals(7L, new Settings(Map.of("VIADSM_TEST_KNOB", " "), Map.of()).longValue(NAME, 7L, 0L));
    }

    @Test
    void shouldRejectAMalformedWholeNumberNamingTheSource()
    {
        assertEquals("system property viadsm.test.knob must be a whole number: '200us'",
            assertThrows(IllegalArgumentException.class,
                () -> new Settings(Map.of(), Map.of(NAME, "200us")).longValue(NAME, 7L, 0L)).getMessage());
        assertEquals("environment variable VIADSM_TEST_KNOB must be a whole number: '2e5'",
            assertThrows(IllegalArgumentException.class,
                () -> new Settings(Map.of("VIADSM_TEST_KNOB", "2e5"), Map.of()).longValue(NAME, 7L, 0L))
                .getMessage());
    }

    @Test
    void shouldRejectAValueBelowTheLeastOrAboveAnInt()
    {
        assertEquals("system property viadsm.test.knob must be at least 0: -1",
            assertThrows(IllegalArgumentException.class,
                () -> new Settings(Map.of(), Map.of(NAME, "-1")).longValue(NAME, 7L, 0L)).getMessage());
        assertEquals("system property viadsm.test.knob must be at most 2147483647: 4294967296",
            assertThrows(IllegalArgumentException.class,
                () -> new Settings(Map.of(), Map.of(NAME, "4294967296")).intValue(NAME, 7, 0)).getMessage());
    }

    @Test
    void shouldReadTrueOrFalseInAnyCaseAndRejectAnythingElse()
    {
        assertTrue(new Settings(Map.of(), Map.of()).booleanValue(NAME, true));
        assertFalse(new Settings(Map.of(), Map.of(NAME, "FALSE")).booleanValue(NAME, true));
        assertTrue(new Settings(Map.of(), Map.of(NAME, "True")).booleanValue(NAME, false));
        assertEquals("system property viadsm.test.knob must be true or false: 'no'",
            assertThrows(IllegalArgumentException.class,
                () -> new Settings(Map.of(), Map.of(NAME, "no")).booleanValue(NAME, true)).getMessage());
    }

    @Test
    void shouldNameBothSourcesOfAMissingRequiredSetting()
    {
        assertEquals("missing setting: environment variable VIADSM_TEST_KNOB or system property viadsm.test.knob",
            assertThrows(IllegalArgumentException.class,
                () -> new Settings(Map.of(), Map.of()).text(NAME, null)).getMessage());
        assertEquals("x", new Settings(Map.of("VIADSM_TEST_KNOB", " x "), Map.of()).text(NAME, null));
    }
}
