package org.viadsm.via.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@Timeout(30)
class TimerSlackTest
{
    @Test
    void shouldSetTheSlackOfTheCallingThreadOnlyOnceAndOnlyItsOwn() throws Exception
    {
        assumeTrue(System.getProperty("os.name", "").startsWith("Linux"), "timer slack is a Linux setting");
        final long[] seen = CompletableFuture.supplyAsync(() ->
        {
            final long before = TimerSlack.current();
            final boolean set = TimerSlack.ensure();
            final long after = TimerSlack.current();
            final boolean again = TimerSlack.ensure();
            return new long[] {before, set ? 1 : 0, after, again ? 1 : 0};
        }, runnable -> new Thread(runnable).start()).get(20, TimeUnit.SECONDS);
        final long other = CompletableFuture.supplyAsync(TimerSlack::current,
            runnable -> new Thread(runnable).start()).get(20, TimeUnit.SECONDS);

        assertEquals(1, seen[1]);
        assertEquals(TimerSlack.SLACK_NS, seen[2]);
        assertEquals(1, seen[3]);
        assertEquals(seen[0], other, "a thread that never parked in a wait keeps the system's slack");
    }
}
