package org.viadsm.via.engine;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.via.Nic;
import org.viadsm.via.provider.shm.ShmNicProvider;
import org.viadsm.via.provider.tcp.TcpConfiguration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Knobs set as system properties: read when set, defaults when not, and a clear error when malformed.
 */
class ConfigurationTest
{
    private static final String NAME = "viadsm.test.knob";

    @AfterEach
    void tearDown()
    {
        System.clearProperty(NAME);
        System.clearProperty(Configuration.WAIT_PARK_MAX_NS_PROP_NAME);
        System.clearProperty(ShmNicProvider.DOORBELL_PROP_NAME);
        System.clearProperty(TcpConfiguration.SEND_STAGING_LIMIT_PROP_NAME);
    }

    @Test
    void shouldReadAWholeNumberOrTheDefault()
    {
        assertEquals(7L, Configuration.longProperty(NAME, 7L, 0L));
        System.setProperty(NAME, " 42 ");
        assertEquals(42L, Configuration.longProperty(NAME, 7L, 0L));
        assertEquals(42, Configuration.intProperty(NAME, 7, 0));
    }

    @Test
    void shouldRejectAMalformedWholeNumberNamingTheProperty()
    {
        System.setProperty(NAME, "200us");
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> Configuration.longProperty(NAME, 7L, 0L));
        assertEquals("system property viadsm.test.knob must be a whole number: '200us'", ex.getMessage());
    }

    @Test
    void shouldRejectAValueBelowTheLeastOrAboveAnInt()
    {
        System.setProperty(NAME, "-1");
        assertEquals("system property viadsm.test.knob must be at least 0: -1",
            assertThrows(IllegalArgumentException.class, () -> Configuration.longProperty(NAME, 7L, 0L)).getMessage());
        System.setProperty(NAME, "4294967296");
        assertEquals("system property viadsm.test.knob must be at most 2147483647: 4294967296",
            assertThrows(IllegalArgumentException.class, () -> Configuration.intProperty(NAME, 7, 0)).getMessage());
    }

    @Test
    void shouldReadTrueOrFalseInAnyCaseAndRejectAnythingElse()
    {
        assertTrue(Configuration.booleanProperty(NAME, true));
        System.setProperty(NAME, "FALSE");
        assertFalse(Configuration.booleanProperty(NAME, true));
        System.setProperty(NAME, "True");
        assertTrue(Configuration.booleanProperty(NAME, false));
        System.setProperty(NAME, "no");
        assertEquals("system property viadsm.test.knob must be true or false: 'no'",
            assertThrows(IllegalArgumentException.class, () -> Configuration.booleanProperty(NAME, true)).getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"jvm:configuration-test", "shm:configuration-test", "tcp:127.0.0.1:0"})
    void shouldFailTheOpenOfANicWhoseKnobIsMalformedAndLeaveNothingBehind(final String address)
    {
        System.setProperty(Configuration.WAIT_PARK_MAX_NS_PROP_NAME, "0.2ms");
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> Nic.open(address).close());
        assertEquals("system property viadsm.via.wait.park.max.ns must be a whole number: '0.2ms'", ex.getMessage());

        System.clearProperty(Configuration.WAIT_PARK_MAX_NS_PROP_NAME);
        try (Nic nic = Nic.open(address))
        {
            assertFalse(nic.isClosed());
        }
    }

    @Test
    void shouldFailTheOpenOfAShmNicWhoseDoorbellSwitchIsMalformed()
    {
        System.setProperty(ShmNicProvider.DOORBELL_PROP_NAME, "off");
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> Nic.open("shm:configuration-bell").close());
        assertEquals("system property viadsm.shm.doorbell must be true or false: 'off'", ex.getMessage());
    }

    @Test
    void shouldFailTheOpenOfATcpNicWhoseKnobIsBelowItsLeast()
    {
        System.setProperty(TcpConfiguration.SEND_STAGING_LIMIT_PROP_NAME, "100");
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> Nic.open("tcp:127.0.0.1:0").close());
        assertEquals("system property viadsm.tcp.send.staging.limit must be at least 4096: 100", ex.getMessage());
    }
}
